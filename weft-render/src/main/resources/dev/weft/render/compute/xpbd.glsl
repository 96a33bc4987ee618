// The buffers every XPBD shader reads (GlslXpbdSolver binds them here): StepPositions' prediction y and
// the corrections d so far, xyz per particle; positions are y + d until the finish settles them.
layout(std430, binding = 13) buffer Predictions { float y[]; };
layout(std430, binding = 14) buffer Corrections { float d[]; };
