/* Shim: xchg and cmpxchg are in ptespec/prelude.h (the machine's primitives); the barriers beside them. */
#ifndef PTESPEC_SHIM_ASM_CMPXCHG_H
#define PTESPEC_SHIM_ASM_CMPXCHG_H
#include <asm/barrier.h>
#endif
