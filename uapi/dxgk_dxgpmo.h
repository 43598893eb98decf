/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * How a Windows callback's block becomes its dxgpmo command's, for the two
 * implementations of the callbacks: libdxgk in user space and
 * <linux/dxgkrnl.h> in the kernel.  Include dxgk_types.h and dxgpmo.h
 * first.
 */
#ifndef _DXGK_DXGPMO_H
#define _DXGK_DXGPMO_H

/*
 * CREATE_PMO's fields from a Create's block, but the adapter; 0, or -1 for
 * a Type with no union member.  Mdl.Flags is not passed on: dxgpmo
 * allocates every page, zeroed, which satisfies each MM_ALLOCATE_* flag.
 */
static inline int
dxgk_to_create_pmo(const DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *args,
		   struct dxgpmo_create_pmo *c)
{
	switch (args->Type) {
	case DXGK_PHYSICAL_MEMORY_TYPE_MDL:
		c->low_address = args->Mdl.LowAddress.QuadPart;
		c->high_address = args->Mdl.HighAddress.QuadPart;
		c->skip_bytes = args->Mdl.SkipBytes.QuadPart;
		break;
	case DXGK_PHYSICAL_MEMORY_TYPE_CONTIGUOUS_MEMORY:
		c->low_address =
			args->ContiguousMemory.LowestAcceptableAddress.QuadPart;
		c->high_address =
			args->ContiguousMemory.HighestAcceptableAddress.QuadPart;
		c->boundary =
			args->ContiguousMemory.BoundaryAddressMultiple.QuadPart;
		break;
	case DXGK_PHYSICAL_MEMORY_TYPE_SECTION:
		c->page_protection = args->Section.PageProtection;
		break;
	case DXGK_PHYSICAL_MEMORY_TYPE_IO_SPACE:
		c->io_base = args->IOSpace.BaseAddress.QuadPart;
		break;
	default:
		return -1;
	}
	c->type = args->Type;
	c->cache_type = args->CacheType;
	c->length = args->Size;
	c->context = args->Context;
	return 0;
}

/* ALLOCATE_ADL's flags from an AllocateAdl's; -1 for a reserved bit. */
static inline int dxgk_to_adl_flags(DXGK_ALLOCATEADL_FLAGS flags)
{
	if (flags.Reserved)
		return -1;
	return (flags.RequireContiguous ? DXGPMO_ADL_REQUIRE_CONTIGUOUS : 0) |
	       (flags.PreferContiguous ? DXGPMO_ADL_PREFER_CONTIGUOUS : 0);
}

/*
 * The DXGK_ADL of an ALLOCATE_ADL reply, over pages (the reply's page
 * array).  The contiguous form only to a driver that asked for it: one
 * that set neither flag reads Pages[] (Windows documents that drivers may
 * not handle a contiguous ADL on every path), and dxgpmo fills the array
 * either way.
 */
static inline void dxgk_adl_of_reply(DXGK_ADL *adl,
				     const DXGK_PAGE_NUMBER *pages,
				     DXGK_ALLOCATEADL_FLAGS asked,
				     const struct dxgpmo_allocate_adl *a)
{
	adl->PageCount = (UINT)a->page_count;
	adl->Flags.Value = 0;
	adl->Flags.Contiguous = (a->adl_flags & DXGPMO_ADL_CONTIGUOUS) &&
		(asked.RequireContiguous || asked.PreferContiguous);
	if (adl->Flags.Contiguous)
		adl->BasePageNumber = a->base_page;
	else
		adl->Pages = pages;
}

#endif /* _DXGK_DXGPMO_H */
