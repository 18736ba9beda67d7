/* Shim: not a realm (CCA) guest. */
#ifndef PTESPEC_SHIM_ASM_RSI_H
#define PTESPEC_SHIM_ASM_RSI_H
static inline bool is_realm_world(void) { return false; }
#endif
