#version 330 core
uniform vec3 uColor;
uniform bool uRoundPoints;

out vec4 fragColor;

void main() {
    if (uRoundPoints && length(gl_PointCoord - vec2(0.5)) > 0.5) {
        discard;
    }
    fragColor = vec4(uColor, 1.0);
}
