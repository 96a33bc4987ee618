#version 330 core
// Phong shading (seed 001 §5.4.2: ambient + diffuse + specular) with two point lights, two-sided:
// a back face is lit with its normal flipped, in its own colour. Light 0 casts shadows through a
// shadow map (seed 001 §5.4.3) onto surfaces that receive them (floor and colliders, not cloth).
in vec3 vWorld;
in vec3 vNormal;
in vec4 vLightClip;

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
uniform float uShadowTexel;
// floor grid: world axes spanning the plane, line spacing in metres (0 = no grid)
uniform vec3 uGridU;
uniform vec3 uGridV;
uniform float uGridSpacing;
uniform vec3 uFogColor;
uniform float uFogDistance;

out vec4 fragColor;

float litByKeyLight() {
    if (!uReceivesShadow) {
        return 1.0;
    }
    vec3 p = vLightClip.xyz / vLightClip.w * 0.5 + 0.5;
    if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) {
        return 1.0;
    }
    // percentage-closer filtering: 4 bilinear depth-compare taps half a texel apart cover a 3 x 3
    // texel footprint (soft edges instead of stair steps) at less than half the lookups of 9 taps
    float sum = 0.0;
    for (int i = 0; i < 4; i++) {
        vec2 offset = vec2((i & 1) == 0 ? -0.5 : 0.5, (i & 2) == 0 ? -0.5 : 0.5) * uShadowTexel;
        sum += texture(uShadowMap, vec3(p.xy + offset, p.z));
    }
    return sum * 0.25;
}

void main() {
    vec3 n = normalize(vNormal);
    vec3 base = uFrontColor;
    if (!gl_FrontFacing) {
        n = -n;
        base = uBackColor;
    }
    if (uGridSpacing > 0.0) {
        vec2 c = vec2(dot(vWorld, uGridU), dot(vWorld, uGridV)) / uGridSpacing;
        vec2 w = fwidth(c);
        vec2 g = abs(fract(c - 0.5) - 0.5) / max(w, vec2(1e-6));
        float line = 1.0 - min(min(g.x, g.y), 1.0);
        // lines fade where they get denser than a pixel, to avoid moire towards the horizon
        line *= clamp(1.0 - 2.0 * max(w.x, w.y), 0.0, 1.0);
        base = mix(base, base * 0.55, line);
    }
    vec3 v = normalize(uEye - vWorld);
    vec3 color = uAmbient * base;
    for (int k = 0; k < 2; k++) {
        vec3 l = normalize(uLightPosition[k] - vWorld);
        float diffuse = max(dot(n, l), 0.0);
        vec3 r = reflect(-l, n);
        float specular = diffuse > 0.0 ? pow(max(dot(r, v), 0.0), uShininess) : 0.0;
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
