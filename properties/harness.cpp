#include "properties/harness.h"

#include <algorithm>
#include <utility>

#include "mm/hugetlb_callers.h"
#include "model/errors.h"
#include "model/pte.h"

namespace ptespec {

void interleaved_writer::start(std::function<void()> body, std::size_t stride)
{
	finish_quietly();
	stride_ = stride;
	done_ = false;
	error_ = nullptr;
	writer_turn_ = false;
	allowance_ = 1;	// up to its first gap
	// The baton is handed over only once t_ names the thread: the writer
	// asks on_writer_thread() at its first gap.
	t_ = std::thread([this, body = std::move(body)] {
		{
			std::unique_lock<std::mutex> l(mu_);
			cv_.wait(l, [&] { return writer_turn_; });
		}
		try {
			body();
		} catch (...) {
			error_ = std::current_exception();
		}
		std::lock_guard<std::mutex> l(mu_);
		done_ = true;
		writer_turn_ = false;
		cv_.notify_all();
	});
	std::unique_lock<std::mutex> l(mu_);
	writer_turn_ = true;
	cv_.notify_all();
	cv_.wait(l, [&] { return !writer_turn_; });
}

void interleaved_writer::hand_to_writer(std::size_t allowance)
{
	std::unique_lock<std::mutex> l(mu_);
	if (done_)
		return;
	allowance_ = allowance;
	writer_turn_ = true;
	cv_.notify_all();
	cv_.wait(l, [&] { return !writer_turn_; });
}

void interleaved_writer::step()
{
	if (running())
		hand_to_writer(stride_);
}

void interleaved_writer::at_writer_gap()
{
	std::unique_lock<std::mutex> l(mu_);
	if (allowance_ == 0 || --allowance_ > 0)
		return;
	writer_turn_ = false;
	cv_.notify_all();
	cv_.wait(l, [&] { return writer_turn_; });
}

void interleaved_writer::finish()
{
	if (!running())
		return;
	hand_to_writer(0);
	t_.join();
	if (error_)
		std::rethrow_exception(std::exchange(error_, nullptr));
}

void interleaved_writer::finish_quietly()
{
	if (!running())
		return;
	hand_to_writer(0);
	t_.join();
	error_ = nullptr;
}

void scheduled_hardware::at_gap(hw_port& port)
{
	const bool writer_gap = iw_.on_writer_thread();
	if (writer_ && h_.in_lockless_ && !writer_gap && port.gap() == writer_gap_) {
		call w = *writer_;
		writer_.reset();
		if (stride_ == 0) {
			inline_writer_ = true;
			try {
				h_.do_call(w);
			} catch (...) {
				inline_writer_ = false;
				throw;
			}
			inline_writer_ = false;
		} else
			iw_.start([this, w] { h_.do_call(w); }, stride_);
	} else if (iw_.running() && !writer_gap && h_.in_lockless_) {
		iw_.step();
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
	if (writer_gap)
		iw_.at_writer_gap();
}

harness::harness(strategy& s, const world_layout& w, std::optional<property> judged, history* record, bool bare)
	: s_(s), w_(w), m_(w.geo, w.nr_entries, w.hw), chk_(w.geo, w.folios, table_t(w.nr_entries, 0), w.hw), hw_(*this),
	  judged_(judged)
{
	m_.set_folios(w.folios);
	bare_ = bare;
	if (bare)
		return;
	m_.set_hardware(&hw_);
	if (record) {
		record->geo = w.geo;
		record->hw = w.hw;
		record->folios = w.folios;
		record->initial = m_.table();
		rec_ = std::make_unique<recorder>(*record);
		rec_->tell_beside([this] { return hw_.in_writer(); });
		obs_.add(rec_.get());
	}
	obs_.add(&chk_);
	m_.set_observer(&obs_);
}

void harness::watch(observer& o, hardware_agent* hw)
{
	m_.set_observer(&o);
	m_.set_hardware(hw ? hw : &hw_);
}

void harness::unwatch()
{
	m_.set_observer(bare_ ? nullptr : &obs_);
	m_.set_hardware(bare_ ? nullptr : &hw_);
}

void harness::set_word_coverage(word_coverage* w)
{
	if (!w || words_)
		return;
	words_ = std::make_unique<word_coverage_observer>(*w, w_.geo);
	obs_.add(words_.get());
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
		throw property_failed{*v, std::nullopt};
}

// The caller rules, before the call reaches the strategy.  A checked
// harness only: a bare one judges nothing, and explore and cost run the
// caller on a checked one first (explore::caller_preflight).  A breach is
// the caller's only while the table is the one the spec describes: once
// the strategy broke a property or gave up half way, a caller that trusted
// what it read (a CONT bit, through pte_batch_hint) may be misled, and the
// call runs as it always did.
void harness::check_caller_rules(const call& c)
{
	if ((bare_ && !bare_caller_rules_) || !caller_rules_)
		return;
	const std::optional<mm::rule_breach> b = mm::check_caller_rules(c, m_.table(), memory(), vma_);
	if (!b || abandoned_ || !chk_.violations().empty())
		return;
	mm::caller_breach cb{caller_->info().name, c, *b};
	violation v{judged_.value_or(property::no_loss), chk_.steps(), b->entry, mm::breach_text(cb)};
	throw property_failed{v, std::move(cb)};
}

std::size_t harness::pte_batch_hint(const geometry& g, std::size_t i, std::uint64_t pte)
{
	const std::size_t n = s_.pte_batch_hint(g, i, pte);
	if (!bare_ && !faulted_ && !abandoned_) {
		const std::size_t before = chk_.violations().size();
		chk_.on_batch_hint(i, pte, n, m_.table());
		const std::vector<violation>& vs = chk_.violations();
		if (judged_ && !failed_hint_ &&
		    std::any_of(vs.begin() + static_cast<long>(before), vs.end(),
				[&](const violation& v) { return v.prop == *judged_; }))
			failed_hint_ = batch_hint_seen{i, pte, n, m_.table()};
		judge_now();
	}
	return n;
}

std::optional<call_result> harness::do_call(const call& c)
{
	if (!s_.implements(c.kind) || faulted_)
		return std::nullopt;
	check_caller_rules(c);
	hw_.next_call();
	calls_++;
	call_result r;
	try {
		r = run_call(s_, m_, c);
	} catch (const strategy_livelock& e) {
		m_.abandon_call();
		abandoned_ = true;
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
	mm::fault_map(*this, first, nr, pte_for(first, prot));
}

void harness::fault_pages(std::size_t first, std::size_t nr, std::uint64_t prot)
{
	mm::fault_pages(*this, w_.geo, first, nr, pte_for(first, prot));
}

void harness::fault_around(std::size_t first, std::size_t last, std::uint64_t prot)
{
	mm::fault_around(*this, memory(), first, last, pte_for(first, prot));
}

void harness::zap(std::size_t first, std::size_t last, bool full, bool batched, bool anon)
{
	walk(first, last,
	     [&] { mm::zap_pte_range(*this, memory(), first, last, {full, batched, anon, batch_limit_}, *caller_); });
}

void harness::fork_wrprotect(std::size_t first, std::size_t last)
{
	walk(first, last, [&] { mm::copy_pte_range(*this, memory(), first, last, batch_limit_, *caller_); });
}

void harness::madv_free(std::size_t first, std::size_t last)
{
	walk(first, last, [&] { mm::madvise_free_pte_range(*this, memory(), first, last, batch_limit_, *caller_); });
}

void harness::reclaim(std::size_t first, std::size_t last, bool flush, bool batched)
{
	walk(first, last,
	     [&] { mm::folio_referenced_one(*this, memory(), first, last, {flush, batched, batch_limit_}, *caller_); });
}

void harness::mprotect(std::size_t first, std::size_t last, std::uint64_t newprot)
{
	mm::change_pte_range(*this, memory(), first, last, newprot, batch_limit_, *caller_);
}

void harness::access_fault(std::size_t page, bool write, bool reuse) { mm::access_fault(*this, page, write, reuse); }

void harness::swap_out(std::size_t page, std::uint64_t swp) { mm::swap_out(*this, page, swp); }

void harness::numa_scan(std::size_t first, std::size_t last)
{
	walk(first, last, [&] { mm::change_prot_numa(*this, memory(), first, last, batch_limit_, *caller_); });
}

void harness::numa_fault(std::size_t page)
{
	// The folio's pages in the table (one VMA holds the whole world), given
	// back the VMA's vm_page_prot, read-only.
	const auto [first, last] = w_.folio_pages(w_.folio_of_page(page));
	walk(first, last, [&] { mm::do_numa_page(*this, memory(), page, first, last, PAGE_READONLY); });
}

void harness::migrate(std::size_t page, unsigned phys_bits, bool exclusive)
{
	const std::size_t f = w_.folio_of_page(page);
	const auto [first, last] = w_.folio_pages(f);
	walk(first, last, [&] { mm::try_to_migrate(*this, memory(), first, last, w_.folios[f], phys_bits, exclusive); });
}

void harness::remove_migration(std::size_t page, unsigned phys_bits)
{
	const std::size_t f = w_.folio_of_page(page);
	const auto [first, last] = w_.folio_pages(f);
	walk(first, last,
	     [&] { mm::remove_migration_ptes(*this, memory(), first, last, w_.folios[f], phys_bits, PAGE_READONLY); });
}

void harness::madv_cold(std::size_t first, std::size_t last)
{
	walk(first, last, [&] { mm::madvise_cold_pte_range(*this, memory(), first, last, batch_limit_, *caller_); });
}

void harness::guard_install(std::size_t first, std::size_t last)
{
	walk(first, last, [&] { mm::guard_install(*this, memory(), first, last); });
}

void harness::guard_remove(std::size_t first, std::size_t last)
{
	walk(first, last, [&] { mm::guard_remove(*this, first, last); });
}

void harness::mremap_away(std::size_t first, std::size_t last)
{
	walk(first, last, [&] { mm::move_ptes(*this, first, last); });
}

void harness::hugetlb_fault(std::size_t first, std::uint64_t prot)
{
	const std::size_t n = w_.geo.cont_ptes;
	walk(first, first + n, [&] { mm::hugetlb_fault(*this, first, n, pfn_pte<std::uint64_t>(w_.pfn_of(first), prot, w_.geo), w_.geo); });
}

void harness::hugetlb_access(std::size_t first, bool write, bool reuse)
{
	const std::size_t n = w_.geo.cont_ptes;
	walk(first, first + n, [&] { mm::hugetlb_access(*this, first, n, write, reuse); });
}

void harness::hugetlb_unmap(std::size_t first, std::size_t last)
{
	walk(first, last, [&] { mm::unmap_hugepage_range(*this, first, last, w_.geo.cont_ptes); });
}

void harness::hugetlb_fork(std::size_t first, std::size_t last)
{
	walk(first, last, [&] { mm::copy_hugetlb_page_range(*this, first, last, w_.geo.cont_ptes); });
}

void harness::hugetlb_mprotect(std::size_t first, std::size_t last, std::uint64_t newprot, unsigned phys_bits)
{
	walk(first, last, [&] {
		mm::hugetlb_change_protection(*this, first, last, w_.geo.cont_ptes, newprot, w_.geo, phys_bits);
	});
}

void harness::hugetlb_migrate(std::size_t first, unsigned phys_bits, bool exclusive)
{
	const std::size_t n = w_.geo.cont_ptes;
	walk(first, first + n, [&] { mm::hugetlb_migrate(*this, first, n, w_.geo, phys_bits, exclusive); });
}

void harness::hugetlb_remove_migration(std::size_t first, unsigned phys_bits, std::uint64_t prot)
{
	const std::size_t n = w_.geo.cont_ptes;
	walk(first, first + n, [&] { mm::hugetlb_remove_migration(*this, first, n, w_.geo, phys_bits, prot); });
}

void harness::hugetlb_mremap_away(std::size_t first)
{
	const std::size_t n = w_.geo.cont_ptes;
	walk(first, first + n, [&] { mm::move_hugepage(*this, first, n); });
}

void harness::hugetlb_uffd_wp_marker(std::size_t first)
{
	const std::size_t n = w_.geo.cont_ptes;
	walk(first, first + n, [&] { mm::hugetlb_uffd_wp_marker(*this, first, n); });
}

void harness::lockless_read(std::size_t page, std::optional<call> writer, std::size_t at_gap, std::size_t stride)
{
	hw_.interleave(std::move(writer), at_gap, stride);
	const bool clears = writer && writer->kind == call_kind::ptep_get_and_clear;
	const std::size_t cleared = writer ? writer->index : 0;
	in_lockless_ = true;
	try {
		mm::gup_fast(*this, page);
	} catch (...) {
		in_lockless_ = false;
		hw_.writer_thread().finish_quietly();
		throw;
	}
	in_lockless_ = false;
	// A writer the read left half done finishes now, still under its lock.
	hw_.writer_thread().finish();
	if (std::optional<call> late = hw_.take_writer())
		do_call(*late);
	// The writer was ptep_clear_flush's clear (try_to_unmap): its caller
	// flushes the page before the entry can be reused.
	if (clears)
		m_.flush_tlb_page(cleared);
}

} // namespace ptespec
