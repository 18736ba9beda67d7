/* Shim: no CPU model's erratum is worked around; the features are cpufeature.h's. */
#ifndef PTESPEC_SHIM_ASM_CPUTYPE_H
#define PTESPEC_SHIM_ASM_CPUTYPE_H
#include <asm/cpufeature.h>
#endif
