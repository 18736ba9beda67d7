/* Shim: the size constants. */
#ifndef PTESPEC_SHIM_LINUX_SIZES_H
#define PTESPEC_SHIM_LINUX_SIZES_H
#define SZ_4K 0x00001000
#define SZ_16K 0x00004000
#define SZ_64K 0x00010000
#define SZ_2M 0x00200000
#define SZ_8M 0x00800000
#define SZ_32M 0x02000000
#define SZ_512M 0x20000000
#define SZ_1G 0x40000000
#endif
