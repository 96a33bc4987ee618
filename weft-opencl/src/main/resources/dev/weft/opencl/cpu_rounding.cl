// The float rules every kernel of this backend keeps, so that a device computes the CPU solvers' bits
// (built first, before the kernels' own source; OpenClContext.build):
// FP_CONTRACT OFF keeps a*b+c from becoming one fused multiply-add, which Java never does; the host
// adds -cl-fp32-correctly-rounded-divide-sqrt where the device has it (Java's float division and
// (float) Math.sqrt are correctly rounded). With WEFT_FP64 accum_t sums in double where the CPU does;
// without it, in float. WEFT_RELAXED (the tests' measure of what a device without these guarantees
// gives) lets the compiler fuse.

#ifndef WEFT_RELAXED
#pragma OPENCL FP_CONTRACT OFF
#endif

#ifdef WEFT_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double accum_t;
#else
typedef float accum_t;
#endif
