/* Shim: the compiler vocabulary is in ptespec/prelude.h; the barriers beside it. */
#ifndef PTESPEC_SHIM_LINUX_COMPILER_H
#define PTESPEC_SHIM_LINUX_COMPILER_H
#include <asm/barrier.h>
#endif
