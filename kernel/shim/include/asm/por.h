/* Shim: everything the tree needs from <asm/por.h> is in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_ASM_POR_H
#define PTESPEC_SHIM_ASM_POR_H
#endif
