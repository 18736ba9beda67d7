/* Shim: everything the tree needs from <asm/cmpxchg.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_ASM_CMPXCHG_H
#define PTESPEC_SHIM_ASM_CMPXCHG_H
#endif
