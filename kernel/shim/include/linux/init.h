/* Shim: initcalls never run in the model (a tree's hugetlbpage_init registers sizes the model does not read). */
#ifndef PTESPEC_SHIM_LINUX_INIT_H
#define PTESPEC_SHIM_LINUX_INIT_H
#define arch_initcall(fn) static int (*const ptespec_initcall_##fn)(void) __attribute__((__unused__)) = fn
#define pr_warn(...) do { } while (0)
#define pr_info(...) do { } while (0)
#define pr_err(...) do { } while (0)
#endif
