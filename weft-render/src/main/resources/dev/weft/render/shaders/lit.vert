#version 330 core
// Everything is drawn in world coordinates: cloth positions come from the simulation as they are,
// collider meshes are built in place, so no model matrix is needed.
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;

uniform mat4 uViewProjection;
uniform mat4 uLightViewProjection;

out vec3 vWorld;
out vec3 vNormal;
out vec4 vLightClip;

void main() {
    vWorld = aPosition;
    vNormal = aNormal;
    vLightClip = uLightViewProjection * vec4(aPosition, 1.0);
    gl_Position = uViewProjection * vec4(aPosition, 1.0);
}
