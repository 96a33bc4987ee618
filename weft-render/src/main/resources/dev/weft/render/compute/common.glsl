// Put after "#version 430 core" and the program's defines before every compute shader of this backend
// (ComputeContext.program): the work-group size (ComputeContext.GROUP) and the buffers every solver's
// shaders share, at the binding points the Java side binds them to (GlslSolver).
//
// The float rule: every float variable that holds a result is declared 'precise'. Without it a GLSL
// compiler may fuse a*b + c into one fused multiply-add and reassociate, which Java never does; with
// it the shaders compute the CPU solvers' operations in their order (the tests measure what is left).
// A store into a buffer is not a precise variable, so results go through one before they are stored.
// Division and square root are DIV and SQRT: GLSL lets a driver compute them to 2.5 ulp (a GPU's
// reciprocal and reciprocal square root); Mesa's llvmpipe rounds them correctly, as Java does.
//
// WEFT_RELAXED (GlslSolver's relaxed build, which the tests use to measure what a driver without those
// guarantees gives) drops 'precise' and computes a/b as a * (1/b) and sqrt(x) as x * inversesqrt(x),
// as GPU compilers do.
#ifdef WEFT_RELAXED
#define precise
#define DIV(a, b) ((a) * (1.0f / (b)))
#define SQRT(x) ((x) > 0.0f ? (x) * inversesqrt(x) : 0.0f)
#else
#define DIV(a, b) ((a) / (b))
#define SQRT(x) sqrt(x)
#endif

layout(local_size_x = 64) in;

// positions and velocities, xyz per particle (GlslDeviceState)
layout(std430, binding = 0) buffer Positions { float x[]; };
layout(std430, binding = 1) buffer Velocities { float v[]; };
// per particle: inverse mass (0: pinned), the colliders' grip and offset (GlslParticles)
layout(std430, binding = 2) readonly buffer InverseMasses { float invMass[]; };
layout(std430, binding = 3) readonly buffer Grips { float grip[]; };
layout(std430, binding = 4) readonly buffer Offsets { float offsetOf[]; };
