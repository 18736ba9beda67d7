// The hardware a run models, beyond what every arm64 CPU with hardware
// access/dirty management does: the features a kernel tests at run time
// (system_supports_bbml2_noabort() and the like) and that change what is
// legal for software.  The machine hands them to strategies (so mainline
// can test them as the kernel does), the TLB shadow and the checker judge
// by them, and a kernel tree's feature tests answer from them.
//
// The default is the hardware ptespec has always modelled; every option is
// one name in `hardware_features`, and `--hardware` takes a comma-separated
// list of those names on every command that runs strategies.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace ptespec {

struct hardware_options {
	// FEAT_BBM level 2 with no TLB conflict aborts: a change of the CONT
	// hint between two valid values may skip break-before-make, as long as
	// both translate to the same output address with the same attributes
	// (model/tlb.h says what the TLB may then hold).
	bool bbml2_noabort = false;
	// No hardware access flag or dirty state management: a CPU without
	// FEAT_HAFDBS, or an SMMU without HTTU walking the same tables.  A
	// walker never sets AF or clears RDONLY; an access through an entry
	// without AF, or a write through one with RDONLY, faults, and core-mm's
	// fault path (handle_pte_fault -> ptep_set_access_flags) sets them.
	bool no_hafdbs = false;
	// One CPU: a TLB invalidation of this CPU only (flush_local) then
	// reaches every TLB there is.  By default the calls race accesses from
	// other CPUs, whose TLBs a local invalidation leaves as they were.
	bool one_cpu = false;

	bool operator==(const hardware_options&) const = default;
	bool is_default() const { return *this == hardware_options{}; }
};

struct hardware_feature {
	std::string_view name;	// what --hardware takes
	std::string_view what;	// one line for --help and the docs
	bool hardware_options::*flag;
};

inline constexpr std::array<hardware_feature, 3> hardware_features{{
	{"bbml2", "BBML2 without TLB conflict aborts: contpte_convert may skip the flush between clear and repaint",
	 &hardware_options::bbml2_noabort},
	{"no-hafdbs", "no hardware access/dirty management (no FEAT_HAFDBS, or an SMMU without HTTU): an access "
		      "without AF or a write on RDONLY faults, and ptep_set_access_flags must set them",
	 &hardware_options::no_hafdbs},
	{"one-cpu", "a single CPU: a local TLB invalidation reaches every TLB (by default other CPUs keep what they "
		    "cached)",
	 &hardware_options::one_cpu},
}};

// The names of the features that are on, comma-separated; "default" when
// none is.
std::string to_string(const hardware_options& hw);

// " --hardware bbml2" for a reproduce line; empty for the default.
std::string hardware_flag(const hardware_options& hw);

} // namespace ptespec
