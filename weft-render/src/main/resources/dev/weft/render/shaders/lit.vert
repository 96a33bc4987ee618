#version 330 core
// Cloth positions come from the simulation in world coordinates (uModel = identity); rigid
// colliders are meshes in their body frame, placed by their current pose (uModel).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec2 aUv; // cloth's texture coordinates; (0, 0) for meshes without them

uniform mat4 uModel;
uniform mat4 uViewProjection;
uniform mat4 uLightViewProjection;

out vec3 vWorld;
out vec3 vNormal;
out vec4 vLightClip;
out vec2 vUv;

void main() {
    vec4 world = uModel * vec4(aPosition, 1.0);
    vWorld = world.xyz;
    vNormal = mat3(uModel) * aNormal; // rigid poses: the rotation turns normals too
    vLightClip = uLightViewProjection * world;
    vUv = aUv;
    gl_Position = uViewProjection * world;
}
