/* Shim: DSB/ISB/DMB order nothing the model sees (its primitives are sequentially consistent). */
#ifndef PTESPEC_SHIM_ASM_BARRIER_H
#define PTESPEC_SHIM_ASM_BARRIER_H
#define dsb(opt) barrier()
#define dmb(opt) barrier()
#define isb() barrier()
#endif
