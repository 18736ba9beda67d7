/* Shim: everything the tree needs from <asm/fixmap.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_ASM_FIXMAP_H
#define PTESPEC_SHIM_ASM_FIXMAP_H
#endif
