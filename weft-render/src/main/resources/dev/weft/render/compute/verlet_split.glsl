// A mass-spring Verlet step with tethers runs in three dispatches, as MassSpringSolver's frame does
// (mass_spring_predict.comp, tethers.comp per tether color, mass_spring_finish.comp): the prediction y
// and the tethers' corrections d, xyz per particle, live here between them (GlslMassSpringSolver binds
// them only for a model with tethers that the settings project).
layout(std430, binding = 15) buffer Predictions { float y[]; };
layout(std430, binding = 16) buffer Corrections { float d[]; };
