/* Shim: system registers read as 0 (only reached behind a feature test that is false). */
#ifndef PTESPEC_SHIM_ASM_SYSREG_H
#define PTESPEC_SHIM_ASM_SYSREG_H
#define SYS_POR_EL0 0
#define read_sysreg_s(reg) ((u64)0)
#define read_sysreg(reg) ((u64)0)
#endif
