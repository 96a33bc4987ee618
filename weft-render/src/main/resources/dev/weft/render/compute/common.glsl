// Put after "#version 430 core" and the program's defines before every compute shader of this backend
// (ComputeContext.program): the work-group size (ComputeContext.GROUP) and the buffers every solver's
// shaders share, at the binding points the Java side binds them to (GlslSolver).
//
// The float rule: every float variable that holds a result is declared 'precise'. Without it a GLSL
// compiler may fuse a*b + c into one fused multiply-add and reassociate, which Java never does; with
// it the shaders compute the CPU solvers' operations in their order (the tests measure what is left).
// A store into a buffer is not a precise variable, so results go through one before they are stored.

layout(local_size_x = 64) in;

// positions and velocities, xyz per particle (GlslDeviceState)
layout(std430, binding = 0) buffer Positions { float x[]; };
layout(std430, binding = 1) buffer Velocities { float v[]; };
// per particle: inverse mass (0: pinned), the colliders' grip and offset (GlslParticles)
layout(std430, binding = 2) readonly buffer InverseMasses { float invMass[]; };
layout(std430, binding = 3) readonly buffer Grips { float grip[]; };
layout(std430, binding = 4) readonly buffer Offsets { float offsetOf[]; };
