/* Shim: everything the tree needs from <asm/bug.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_ASM_BUG_H
#define PTESPEC_SHIM_ASM_BUG_H
#endif
