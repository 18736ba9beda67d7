/* Shim: no EFI runtime mm; every mm ptespec passes is a user mm. */
#ifndef PTESPEC_SHIM_EFI_H
#define PTESPEC_SHIM_EFI_H
static inline bool mm_is_efi(struct mm_struct *mm) { return false; }
#endif
