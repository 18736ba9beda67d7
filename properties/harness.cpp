#include "properties/harness.h"

#include "model/errors.h"
#include "model/pte.h"

namespace ptespec {

void scheduled_hardware::at_gap(hw_port& port)
{
	if (writer_ && h_.in_lockless_ && port.gap() == writer_gap_) {
		call w = *writer_;
		writer_.reset();
		h_.do_call(w);
	}
	const std::size_t next = port.next_index();
	if (plan_) {
		for (std::size_t k = 0; k < plan_->size(); k++) {
			const hw_plan_event& e = (*plan_)[k];
			if (fired_[k] || e.call != call_)
				continue;
			const std::size_t seen = e.entry < touches_.size() ? touches_[e.entry] : 0;
			if (next != hw_port::npos && !(next == e.entry && seen == e.nth))
				continue;
			fired_[k] = true;
			const std::size_t page = e.page % port.nr_pages();
			port.candidates(page, e.kind, cand_);
			if (cand_.empty())
				continue;
			std::size_t landing = cand_[e.entry % cand_.size()];
			for (std::size_t c : cand_)
				if (c == e.entry)
					landing = c;
			port.fire(e.kind, page, landing);
		}
	}
	if (next != hw_port::npos) {
		if (touches_.size() <= next)
			touches_.resize(next + 1, 0);
		if (touches_[next]++ == 0)
			touched_.push_back(next);
	}
}

harness::harness(strategy& s, const world_layout& w, std::optional<property> judged, history* record, bool bare)
	: s_(s), w_(w), m_(w.geo, w.nr_entries), chk_(w.geo, w.folios, table_t(w.nr_entries, 0)), hw_(*this),
	  judged_(judged)
{
	m_.set_folios(w.folios);
	if (bare)
		return;
	m_.set_hardware(&hw_);
	if (record) {
		record->geo = w.geo;
		record->folios = w.folios;
		record->initial = m_.table();
		rec_ = std::make_unique<recorder>(*record);
		obs_.add(rec_.get());
	}
	obs_.add(&chk_);
	m_.set_observer(&obs_);
}

std::uint64_t harness::pte_for(std::size_t p, std::uint64_t prot) const
{
	return pfn_pte(w_.pfn_of(p), prot, w_.geo);
}

void harness::judge_now()
{
	if (!judged_)
		return;
	if (const violation* v = chk_.first(*judged_))
		throw property_failed{*v};
}

std::optional<call_result> harness::do_call(const call& c)
{
	if (!s_.implements(c.kind) || faulted_)
		return std::nullopt;
	hw_.next_call();
	calls_++;
	call_result r;
	try {
		r = run_call(s_, m_, c);
	} catch (const strategy_livelock& e) {
		m_.abandon_call();
		chk_.on_call_abandoned(c, e.what());
		judge_now();
		return std::nullopt;
	} catch (const strategy_fault& f) {
		// The call stopped half done, so the ledger no longer describes
		// the table: the fault is judged (isolation, well-formed) and the
		// case makes no further call, rather than blame what follows on
		// properties the fault itself broke.
		m_.fault_call(c, f);
		faulted_ = true;
		judge_now();
		return std::nullopt;
	}
	judge_now();
	return r;
}

void harness::idle()
{
	hw_.next_call();
	m_.idle();
}

void harness::fault_map(std::size_t first, std::size_t nr, std::uint64_t prot)
{
	call c{call_kind::set_ptes, first, nr, false, pte_for(first, prot), 0};
	do_call(c);
}

void harness::fault_pages(std::size_t first, std::size_t nr, std::uint64_t prot)
{
	for (std::size_t p = first; p < first + nr; p++)
		do_call({call_kind::set_ptes, p, 1, false, pte_for(p, prot), 0});
}

// How many entries from i on map consecutive pages of i's folio with the
// same attributes, found the way folio_pte_batch finds them: ptep_get each
// candidate, except that pte_batch_hint lets it skip the rest of a run
// whose entry read as CONT (the run maps consecutive pages by definition).
std::size_t harness::batch_len(std::size_t i, std::size_t last, std::uint64_t first_val, bool writable_only)
{
	const std::size_t folio = w_.folio_of_page(i);
	const std::size_t end = std::min(last, w_.folio_first_page(folio) + w_.folios[folio].nr_pages);
	auto hint = [&](std::size_t j, std::uint64_t v) {
		return pte_valid_cont(v) ? w_.geo.run_start(j) + w_.geo.cont_ptes - j : std::size_t{1};
	};
	std::size_t nr = std::min(hint(i, first_val), end - i);
	const std::size_t limit = batch_limit_ ? batch_limit_ : end - i;
	nr = std::min(nr, limit);
	while (i + nr < end && nr < limit) {
		auto r = do_call({call_kind::ptep_get, i + nr, 1, false, 0, 0});
		if (!r || !r->pte)
			break;
		const std::uint64_t v = *r->pte;
		const std::uint64_t want = pte_advance_pfn(first_val, nr, w_.geo);
		if (!pte_valid(v) || !pte_same_mapping(v, want) || (writable_only && !pte_write(v)))
			break;
		nr = std::min(std::min<std::size_t>(nr + hint(i + nr, v), end - i), limit);
	}
	return nr;
}

void harness::zap(std::size_t first, std::size_t last, bool full, bool batched, bool anon)
{
	for (std::size_t i = first; i < last;) {
		auto r = do_call({call_kind::ptep_get, i, 1, false, 0, 0});
		if (!r || !r->pte)
			return;
		const std::uint64_t v = *r->pte;
		if (pte_none(v)) {
			i++;
			continue;
		}
		if (!pte_valid(v)) {
			do_call({call_kind::ptep_get_and_clear_full, i, 1, full, 0, 0});
			i++;
			continue;
		}
		const call_kind k = anon ? call_kind::clear_full_ptes : call_kind::get_and_clear_full_ptes;
		// Without the batch API, zap clears entry by entry (as core-mm did
		// before get_and_clear_full_ptes existed).
		if (!batched || !s_.implements(k)) {
			do_call({call_kind::ptep_get_and_clear_full, i, 1, full, 0, 0});
			i++;
			continue;
		}
		const std::size_t nr = batch_len(i, last, v, false);
		do_call({k, i, nr, full, 0, 0});
		i += nr;
	}
	// tlb_finish_mmu: the gathered flush, before any page can be reused.
	m_.flush_tlb_range(first, last - first);
}

void harness::fork_wrprotect(std::size_t first, std::size_t last)
{
	for (std::size_t i = first; i < last;) {
		auto r = do_call({call_kind::ptep_get, i, 1, false, 0, 0});
		if (!r || !r->pte)
			return;
		if (!pte_valid(*r->pte) || !pte_write(*r->pte)) {
			i++;
			continue;
		}
		const std::size_t nr = batch_len(i, last, *r->pte, true);
		do_call({call_kind::wrprotect_ptes, i, nr, false, 0, 0});
		i += nr;
	}
}

void harness::madv_free(std::size_t first, std::size_t last)
{
	for (std::size_t i = first; i < last;) {
		auto r = do_call({call_kind::ptep_get, i, 1, false, 0, 0});
		if (!r || !r->pte)
			return;
		if (!pte_valid(*r->pte)) {
			i++;
			continue;
		}
		const std::size_t nr = batch_len(i, last, *r->pte, false);
		do_call({call_kind::clear_young_dirty_ptes, i, nr, false, 0, CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY});
		i += nr;
	}
}

void harness::reclaim(std::size_t page, bool flush)
{
	do_call({flush ? call_kind::ptep_clear_flush_young : call_kind::ptep_test_and_clear_young, page, 1, false, 0,
		 0});
}

void harness::access_fault(std::size_t page, bool write, bool reuse)
{
	auto r = do_call({call_kind::ptep_get, page, 1, false, 0, 0});
	if (!r || !r->pte || !pte_valid(*r->pte))
		return;
	std::uint64_t entry = pte_mkyoung(*r->pte);
	// A write through a read-only entry of a writable VMA is do_wp_page's:
	// the page is reused in place (an exclusive anon page after fork), and
	// the entry made writable and dirty -- the one call that raises write
	// permission.
	const bool upgrade = write && reuse && !pte_write(entry);
	const bool dirty = write && (pte_write(entry) || upgrade);
	if (dirty)
		entry = upgrade ? pte_mkwrite(pte_mkdirty(entry)) : pte_mkdirty(entry);
	do_call({call_kind::ptep_set_access_flags, page, 1, false, entry, dirty ? 1u : 0u});
}

void harness::swap_out(std::size_t page, std::uint64_t swp)
{
	do_call({call_kind::set_ptes, page, 1, false, swp, 0});
}

void harness::lockless_read(std::size_t page, std::optional<call> writer, std::size_t at_gap)
{
	hw_.interleave(std::move(writer), at_gap);
	const bool clears = writer && writer->kind == call_kind::ptep_get_and_clear;
	const std::size_t cleared = writer ? writer->index : 0;
	in_lockless_ = true;
	do_call({call_kind::ptep_get_lockless, page, 1, false, 0, 0});
	in_lockless_ = false;
	if (std::optional<call> late = hw_.take_writer())
		do_call(*late);
	// The writer was ptep_clear_flush's clear (try_to_unmap): its caller
	// flushes the page before the entry can be reused.
	if (clears)
		m_.flush_tlb_page(cleared);
}

} // namespace ptespec
