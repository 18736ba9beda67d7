/* Shim: CPU feature tests, answered from the host's hardware options (host.h); any other feature is absent. */
#ifndef PTESPEC_SHIM_ASM_CPUFEATURE_H
#define PTESPEC_SHIM_ASM_CPUFEATURE_H
#define ptespec_has(f) (ptespec_cur->host->features[f] != 0)
static inline bool system_supports_bbml2_noabort(void) { return ptespec_has(PTESPEC_FEATURE_BBML2_NOABORT); }
static inline bool system_supports_mte(void) { return ptespec_has(PTESPEC_FEATURE_MTE); }
static inline bool system_supports_gcs(void) { return ptespec_has(PTESPEC_FEATURE_GCS); }
static inline bool cpu_has_hw_af(void) { return ptespec_has(PTESPEC_FEATURE_HAFDBS); }
static inline bool system_supports_poe(void) { return false; }
static inline bool system_supports_hvo(void) { return false; }
static inline bool system_supports_haft(void) { return false; }
static inline bool system_supports_bti(void) { return false; }
static inline bool system_supports_bti_kernel(void) { return false; }
static inline bool system_supports_lpa2(void) { return false; }
/* Unless the tree's pgtable-prot.h has said it first (a macro, without CONFIG_ARM64_LPA2). */
#ifndef lpa2_is_enabled
static inline bool lpa2_is_enabled(void) { return false; }
#endif
static inline bool system_supports_tlb_range(void) { return ptespec_has(PTESPEC_FEATURE_TLB_RANGE); }
/* Capability numbers the headers name; only FEAT_TTL is patched in, as the host says. */
enum {
	ARM64_ALWAYS_BOOT,
	ARM64_HAS_VA52,
	ARM64_HAS_STAGE2_FWB,
	ARM64_HAS_EPAN,
	ARM64_WORKAROUND_REPEAT_TLBI,
	ARM64_HAS_ARMv8_4_TTL,
	ARM64_WORKAROUND_2645198,
};
static inline bool ptespec_cap(int cap) { return cap == ARM64_HAS_ARMv8_4_TTL && ptespec_has(PTESPEC_FEATURE_TTL); }
#define alternative_has_cap_likely(cap) ptespec_cap(cap)
#define alternative_has_cap_unlikely(cap) ptespec_cap(cap)
#define cpus_have_final_cap(cap) false
#define cpus_have_cap(cap) false
#endif
