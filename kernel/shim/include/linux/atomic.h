/* Shim: atomic_t as the mm's user count needs it (read only). */
#ifndef PTESPEC_SHIM_LINUX_ATOMIC_H
#define PTESPEC_SHIM_LINUX_ATOMIC_H
typedef struct { int counter; } atomic_t;
#define atomic_read(v) ((v)->counter)
#endif
