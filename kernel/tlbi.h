// The TLB maintenance a tree's own asm/tlbflush.h performs, as the machine
// sees it: each TLBI instruction decoded from its name and operand, held
// until a DSB waits for it, then handed to the machine as the invalidation
// it is.  A tree without its own header calls the shim's flush API instead
// (kernel/shim/include/asm/tlbflush.h), which reaches the machine as one
// invalidation per call; both end in the same machine primitives.
//
// What an instruction reaches, as the architecture defines the operand
// (EL1&0 stage 1, no LPA2):
//   by VA (VAE1, VALE1, VAAE1, VAALE1): bits [43:0] hold VA[55:12], so the
//     page holding that address; [63:48] the ASID (the "AA" forms take any
//     ASID); [47:44] the TTL hint: [47:46] the granule (0: no hint), [45:44]
//     the level of the entry.
//   by range (RVAE1, RVALE1, ...): [36:0] the first page, [38:37] the TTL
//     level (0: no hint), [43:39] NUM, [45:44] SCALE, [47:46] the granule,
//     [63:48] the ASID: (NUM + 1) << (5 * SCALE + 1) pages.
//   by ASID (ASIDE1) and everything (VMALLE1): the whole address space.
// The IS and OS forms broadcast to every CPU; without them the TLBI is the
// issuing CPU's alone.  A level hint other than a pte's may reach no entry,
// as the model's flush_level says; a granule other than the machine's, or
// another ASID, reaches none.  Operations on another translation regime
// (EL2, stage 2) reach nothing of this table.
//
// A TLBI is complete only when a later DSB waits for it: DSB ISH/OSH/SY for
// any, DSB NSH for the CPU's own; the ST and LD forms wait for none.  So the
// machine hears an instruction when it completes, and a store made between
// the TLBI and its DSB is judged against a TLB that may still hold the old
// translation.  One still pending when the call returns is handed over as
// issued without its DSB (flush_nosync), which completes nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel/shim/include/ptespec/host.h"

namespace ptespec::kernel {

// One TLBI, decoded against a table of `entries` entries at PTESPEC_VA_BASE,
// each mapping 2^entry_shift bytes (pages of 2^page_shift bytes in a pte
// table, PMD blocks in a pmd table).
struct tlbi_effect {
	int kind = PTESPEC_FLUSH_PAGE;	// enum ptespec_flush_kind
	std::size_t first = 0, nr = 0;	// the entries of the table it reaches
	unsigned flags = 0;	// PTESPEC_FLUSH_* (local, last level, level hint)
	bool reaches_nothing = false;	// another ASID, granule or regime, or outside the table
};

// The effect of TLBI `op` with `operand`; nullopt for a name this decoder
// does not know (the caller refuses the tree).
// entry_shift 0 is page_shift.
std::optional<tlbi_effect> decode_tlbi(std::string_view op, std::uint64_t operand, unsigned page_shift,
				       std::size_t entries, unsigned entry_shift = 0);

// Whether DSB option `option` (enum ptespec_dsb) waits for broadcast TLBIs,
// and for the CPU's own.
bool dsb_completes_broadcast(int option);
bool dsb_completes_local(int option);

// A tree's asm/tlbflush.h as the module compiles it: its TLBI macros'
// definitions (__TLBI_0 and __TLBI_1, each an asm statement issuing "tlbi
// op[, operand]") replaced by calls of the host, ptespec_tlbi("op",
// operand), on the same lines; nothing else changes.  nullopt when the
// header defines neither.
std::optional<std::string> host_tlbi_macros(const std::string& header);

// The TLBIs a call issued that no DSB has waited for yet.
class tlbi_queue {
public:
	void issue(const tlbi_effect& e) { pending_.push_back(e); }
	// The instructions DSB `option` completes, in the order issued, adjacent
	// page invalidations with the same flags merged into one range; they
	// leave the queue.
	std::vector<tlbi_effect> complete(int option);
	// What is still pending at the call's end, each marked
	// PTESPEC_FLUSH_NOSYNC and merged as complete() merges; the queue is
	// empty after.
	std::vector<tlbi_effect> abandon();

private:
	std::vector<tlbi_effect> pending_;
};

} // namespace ptespec::kernel
