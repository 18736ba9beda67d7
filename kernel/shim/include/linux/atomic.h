/* Shim: atomic_t as the mm's user count needs it, atomic64_t as its ASID does (read only). */
#ifndef PTESPEC_SHIM_LINUX_ATOMIC_H
#define PTESPEC_SHIM_LINUX_ATOMIC_H
typedef struct { int counter; } atomic_t;
typedef struct { long long counter; } atomic64_t;
#define atomic_read(v) ((v)->counter)
#define atomic64_read(v) ((v)->counter)
#endif
