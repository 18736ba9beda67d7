/*
 * Shim: DMB and ISB order nothing the model sees (its primitives are
 * sequentially consistent); a DSB is where TLB maintenance completes, so
 * it reaches the host (ptespec/host.h's enum ptespec_dsb names the options).
 */
#ifndef PTESPEC_SHIM_ASM_BARRIER_H
#define PTESPEC_SHIM_ASM_BARRIER_H
#define dsb(opt) ptespec_dsb(PTESPEC_DSB_##opt)
#define dmb(opt) barrier()
#define isb() barrier()
#endif
