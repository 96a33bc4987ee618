#version 330 core
// Phong shading (seed 001 §5.4.2: ambient + diffuse + specular) with two point lights, two-sided:
// a back face is lit with its normal flipped, in its own colour. Light 0 casts shadows through a
// shadow map (seed 001 §5.4.3) onto surfaces that receive them (floor and colliders, not cloth).
in vec3 vWorld;
in vec3 vNormal;
in vec4 vLightClip;
in vec2 vUv;

uniform vec3 uFrontColor;
uniform vec3 uBackColor;
uniform vec3 uEye;
uniform vec3 uLightPosition[2];
uniform vec3 uLightColor[2];
uniform vec3 uAmbient;
uniform float uSpecular;
uniform float uShininess;
uniform bool uReceivesShadow;
uniform sampler2DShadow uShadowMap;
// floor grid: world axes spanning the plane, line spacing in metres (0 = no grid)
uniform vec3 uGridU;
uniform vec3 uGridV;
uniform float uGridSpacing;
uniform vec3 uFogColor;
uniform float uFogDistance;
// checker over the texture coordinates: squares per uv unit (0 = none); the dark squares are the
// body's colour darkened, so a stretched cloth shows stretched squares and keeps its hue
uniform float uChecker;
// a body's own image over its texture coordinates, in place of its colour and the checker (sRGB texels)
uniform sampler2D uTexture;
uniform bool uTextured;
// FLOOR (defined for the floor's program): the grid, the shadow and no specular, checker or texture. llvmpipe
// pays per pixel for code behind a uniform's branch it does not take, and the floor is most of the picture:
// without those branches it costs less than half (docs/viewer-speed.md). CLOTH (a body without its own
// image): checker and specular, no shadow (cloth receives none) and no texture branch.

out vec4 fragColor;

float litByKeyLight() {
#ifdef CLOTH
    return 1.0;
#else
#ifndef FLOOR
    if (!uReceivesShadow) {
        return 1.0;
    }
#endif
    vec3 p = vLightClip.xyz / vLightClip.w * 0.5 + 0.5;
    if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) {
        return 1.0;
    }
    // one depth-compare lookup with bilinear filtering: the hardware's 2 x 2 percentage-closer
    // filter softens the edge by a texel; 4 such taps (3 x 3 texels) cost llvmpipe a third more
    // per frame at 1280 x 720, mostly on the floor
    return texture(uShadowMap, p);
#endif
}

void main() {
    vec3 n = normalize(vNormal);
    vec3 base = uFrontColor;
    if (!gl_FrontFacing) {
        n = -n;
        base = uBackColor;
    }
#ifndef FLOOR
#ifndef CLOTH
    if (uTextured) {
        base = pow(texture(uTexture, vUv).rgb, vec3(2.2)) * (gl_FrontFacing ? 1.0 : 0.85);
    } else
#endif
    if (uChecker > 0.0) {
        vec2 cell = floor(vUv * uChecker);
        base *= mod(cell.x + cell.y, 2.0) < 0.5 ? 1.0 : 0.62;
    }
#else
    if (uGridSpacing > 0.0) {
        vec2 c = vec2(dot(vWorld, uGridU), dot(vWorld, uGridV)) / uGridSpacing;
        vec2 w = fwidth(c);
        vec2 g = abs(fract(c - 0.5) - 0.5) / max(w, vec2(1e-6));
        float line = 1.0 - min(min(g.x, g.y), 1.0);
        // lines fade where they get denser than a pixel, to avoid moire towards the horizon
        line *= clamp(1.0 - 2.0 * max(w.x, w.y), 0.0, 1.0);
        base = mix(base, base * 0.55, line);
    }
#endif
    vec3 v = normalize(uEye - vWorld);
    vec3 color = uAmbient * base;
    for (int k = 0; k < 2; k++) {
        vec3 l = normalize(uLightPosition[k] - vWorld);
        float diffuse = max(dot(n, l), 0.0);
        float specular = 0.0;
#ifndef FLOOR
        if (uSpecular > 0.0 && diffuse > 0.0) {
            specular = pow(max(dot(reflect(-l, n), v), 0.0), uShininess);
        }
#endif
        // the shadow lookup only where the key light could reach at all
        float visible = k == 0 && diffuse > 0.0 ? litByKeyLight() : 1.0;
        color += visible * uLightColor[k] * (diffuse * base + uSpecular * specular);
    }
    if (uFogDistance > 0.0) {
        float d = length(uEye - vWorld);
        color = mix(color, uFogColor, clamp((d - uFogDistance) / uFogDistance, 0.0, 1.0));
    }
    fragColor = vec4(pow(clamp(color, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
