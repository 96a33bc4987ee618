#version 330 core
// Wireframe lines and particle points: one colour, no lighting.
layout(location = 0) in vec3 aPosition;

uniform mat4 uViewProjection;
uniform float uPointSize;

void main() {
    gl_Position = uViewProjection * vec4(aPosition, 1.0);
    gl_PointSize = uPointSize;
}
