// The springs' buffers both mass-spring shaders read (GlslMassSpringSolver binds them here).
layout(std430, binding = 7) readonly buffer SpringPairs { int pairs[]; };
layout(std430, binding = 11) buffer SpringForces { float springForce[]; };
