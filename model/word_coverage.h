// Which fields of the words that reached a strategy took which values: the
// second half of what `ptespec test --coverage` prints, so a user sees which
// bits the sampled cases never varied (a strategy that mishandles a bit no
// case set is not tested on it).
//
// The words are the values set_ptes and ptep_set_access_flags were given
// and every entry the strategy read (a read, or the old value of an
// exchange or atomic update).  A field is one bit (seen 0, seen 1) or a
// wider one (seen 0, seen non-zero); present and non-present values have
// fields of their own, since a non-present value's bits mean other things
// (and a strategy that tests CONT or AF without VALID reads them anyway).
//
// Only a harness given a word_coverage records anything: without one the
// observer is not installed and costs nothing.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/geometry.h"
#include "model/observer.h"
#include "model/pte.h"

namespace ptespec {

struct word_field {
	std::string_view name;
	bool present;	// a field of present values (else of non-present ones)
	bool wide;	// more than one bit: "1" means non-zero
	std::uint64_t (*get)(std::uint64_t v, std::size_t index, const geometry& g);
	// Why the model gives this field one value only, if it does: said
	// beside it, so "only 0" reads as a known limit, not a missed case.
	std::string_view one_value_why = {};
};

namespace word_field_get {
template <std::uint64_t Mask>
std::uint64_t bits(std::uint64_t v, std::size_t, const geometry&)
{
	return v & Mask;
}
// 1 when the pfn sits at its entry's place in a run (pfn and index agree
// mod the run's length, in entries of what each maps), as a CONT run's
// pfns must.
inline std::uint64_t pfn_aligned(std::uint64_t v, std::size_t index, const geometry& g)
{
	return (pte_pfn(v, g) / g.entry_pages() - index) % g.cont_ptes == 0;
}
inline std::uint64_t swp_type(std::uint64_t v, std::size_t, const geometry&) { return swp_type_of(v); }
inline std::uint64_t swp_offset(std::uint64_t v, std::size_t, const geometry&) { return swp_offset_of(v); }
} // namespace word_field_get

inline constexpr std::uint64_t PTE_ATTRINDX = bit(2) | bit(3) | bit(4);	// memory type

inline constexpr word_field word_fields[] = {
	{"TYPE", true, false, word_field_get::bits<PTE_TYPE>, "a valid last-level entry is a page"},
	{"AttrIndx (memory type)", true, true, word_field_get::bits<PTE_ATTRINDX>},
	{"USER", true, false, word_field_get::bits<PTE_USER>},
	{"RDONLY", true, false, word_field_get::bits<PTE_RDONLY>},
	{"SHARED (shareability)", true, true, word_field_get::bits<PTE_SHARED>},
	{"AF", true, false, word_field_get::bits<PTE_AF>},
	{"nG", true, false, word_field_get::bits<PTE_NG>},
	{"WRITE (DBM)", true, false, word_field_get::bits<PTE_WRITE>},
	{"CONT", true, false, word_field_get::bits<PTE_CONT>},
	{"PXN", true, false, word_field_get::bits<PTE_PXN>},
	{"UXN", true, false, word_field_get::bits<PTE_UXN>},
	{"DIRTY", true, false, word_field_get::bits<PTE_DIRTY>},
	{"SPECIAL", true, false, word_field_get::bits<PTE_SPECIAL>},
	{"pfn at its entry's place in a run", true, false, word_field_get::pfn_aligned},
	{"swap type", false, true, word_field_get::swp_type},
	{"swap offset", false, true, word_field_get::swp_offset, "the cases draw swap offsets from 1"},
	{"SWP_EXCLUSIVE", false, false, word_field_get::bits<PTE_SWP_EXCLUSIVE>},
	{"SWP_UFFD_WP", false, false, word_field_get::bits<PTE_SWP_UFFD_WP>, "userfaultfd is not modelled"},
	{"AF (swap type bit 4)", false, false, word_field_get::bits<PTE_AF>},
	{"PRESENT_INVALID (nG)", false, false, word_field_get::bits<PTE_NG>,
	 "PROT_NONE (mprotect, NUMA hinting) is not modelled"},
	{"CONT (swap offset bit 40)", false, false, word_field_get::bits<PTE_CONT>},
};
inline constexpr std::size_t nr_word_fields = std::size(word_fields);

class word_coverage {
public:
	struct seen {
		bool zero = false, nonzero = false;
	};

	// One word met at `index`; none entries carry no fields.
	void record(std::uint64_t v, std::size_t index, const geometry& g)
	{
		if (v == 0)
			return;
		const bool present = pte_valid(v);
		(present ? present_ : non_present_)++;
		for (std::size_t f = 0; f < nr_word_fields; f++)
			if (word_fields[f].present == present)
				(word_fields[f].get(v, index, g) ? fields_[f].nonzero : fields_[f].zero) = true;
	}
	void merge(const word_coverage& o)
	{
		present_ += o.present_;
		non_present_ += o.non_present_;
		for (std::size_t f = 0; f < nr_word_fields; f++) {
			fields_[f].zero = fields_[f].zero || o.fields_[f].zero;
			fields_[f].nonzero = fields_[f].nonzero || o.fields_[f].nonzero;
		}
	}
	const std::array<seen, nr_word_fields>& fields() const { return fields_; }
	std::uint64_t present_values() const { return present_; }
	std::uint64_t non_present_values() const { return non_present_; }

private:
	std::array<seen, nr_word_fields> fields_{};
	std::uint64_t present_ = 0, non_present_ = 0;
};

// Feeds a word_coverage from a machine's steps: the values of set_ptes,
// modify_prot_commit_ptes and ptep_set_access_flags, and what the strategy's primitives read.
class word_coverage_observer final : public observer {
public:
	word_coverage_observer(word_coverage& w, const geometry& g) : w_(w), g_(g) {}
	void on_call_begin(const call& c, const table_t&) override
	{
		if (passes_value(c.kind))
			w_.record(c.pte, c.index, g_);
	}
	void on_primitive(const primitive_step& p, const table_t&) override
	{
		if (p.kind == prim_kind::read || p.kind == prim_kind::exchange || p.kind == prim_kind::atomic_update)
			w_.record(p.old_value, p.index, g_);
	}

private:
	word_coverage& w_;
	geometry g_;
};

} // namespace ptespec
