/* Shim: everything the tree needs from <asm/proc-fns.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_ASM_PROC_FNS_H
#define PTESPEC_SHIM_ASM_PROC_FNS_H
#endif
