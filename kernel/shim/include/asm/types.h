/* Shim: the fixed-width types are in ptespec/prelude.h. */
#ifndef PTESPEC_SHIM_ASM_TYPES_H
#define PTESPEC_SHIM_ASM_TYPES_H
#endif
