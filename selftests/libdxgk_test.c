// SPDX-License-Identifier: GPL-2.0
/*
 * kselftests of libdxgk on the real module: every Windows-named call
 * through the library, the NTSTATUS each kernel error comes back as,
 * Open/Close (which the examples do not use), maps at unaligned offsets,
 * page-array ADLs, subrange queries, and the session model (explicit
 * sessions, per-thread selection, handles that do not cross sessions or
 * a fork).  Linked against libdxgk.a only.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "libdxgk.h"
#include "machine.h"
#include "steady.h"

static NTSTATUS create_mdl(HANDLE hAdapter, SIZE_T Size,
			   DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *c)
{
	*c = (DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT){
		.hAdapter = hAdapter, .Size = Size,
		.Type = DXGK_PHYSICAL_MEMORY_TYPE_MDL,
		.CacheType = DXGK_MEMORY_CACHING_TYPE_CACHED,
	};
	return DxgkCbCreatePhysicalMemoryObject(c);
}

static NTSTATUS destroy(HANDLE hPmo, HANDLE hAmo)
{
	DXGKARGCB_DESTROY_PHYSICAL_MEMORY_OBJECT d = { hPmo, hAmo };

	return DxgkCbDestroyPhysicalMemoryObject(&d);
}

/* Destroy what Create made: the object, and its AMO if it has one. */
static NTSTATUS
destroy_created(const DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *c)
{
	return destroy(c->hPhysicalMemoryObject, c->hAdapterMemoryObject);
}

/* An ADL of Size bytes at Offset of the AMO's object, no flags. */
static NTSTATUS allocate_adl(HANDLE hAmo, SIZE_T Offset, SIZE_T Size,
			     DXGKARGCB_ALLOCATE_ADL *a)
{
	*a = (DXGKARGCB_ALLOCATE_ADL){
		.hAdapterMemoryObject = hAmo, .Offset = Offset, .Size = Size,
	};
	return DxgkCbAllocateAdl(a);
}

static NTSTATUS free_adl(HANDLE hAmo, DXGK_ADL *pAdl)
{
	DXGKARGCB_FREE_ADL f = { hAmo, pAdl };

	return DxgkCbFreeAdl(&f);
}

/* A view of Size bytes at Offset of the object, in AccessMode. */
static NTSTATUS map_memory(HANDLE hPmo, DXGK_ACCESS_MODE AccessMode,
			   SIZE_T Offset, SIZE_T Size,
			   DXGKARGCB_MAP_PHYSICAL_MEMORY *m)
{
	*m = (DXGKARGCB_MAP_PHYSICAL_MEMORY){
		.hPhysicalMemoryObject = hPmo, .AccessMode = AccessMode,
		.Offset = Offset, .Size = Size,
	};
	return DxgkCbMapPhysicalMemory(m);
}

/* Unmap the view, with the base and size Map returned. */
static NTSTATUS unmap_view(const DXGKARGCB_MAP_PHYSICAL_MEMORY *m)
{
	DXGKARGCB_UNMAP_PHYSICAL_MEMORY um = {
		m->hPhysicalMemoryObject, m->pMappedAddress, m->Size,
	};

	return DxgkCbUnmapPhysicalMemory(&um);
}

FIXTURE(dxgk) {
	HANDLE virt;	/* logical page == physical page */
};

FIXTURE_SETUP(dxgk)
{
	ASSERT_EQ(STATUS_SUCCESS,
		  DxgkLinuxOpenAdapter(NULL, DXGK_LINUX_ADAPTER_VIRTUAL,
				       &self->virt));
	ASSERT_NE(NULL, self->virt);
}

FIXTURE_TEARDOWN(dxgk)
{
}

/* Create without an adapter, then Open and Close, as early-boot code does. */
TEST_F(dxgk, open_close)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT o, o2;
	DXGKARGCB_CLOSE_PHYSICAL_MEMORY_OBJECT cl;
	DXGKARGCB_ALLOCATE_ADL a;

	ASSERT_EQ(STATUS_SUCCESS, create_mdl(NULL, 4 * PAGE_SIZE, &c));
	ASSERT_NE(NULL, c.hPhysicalMemoryObject);
	EXPECT_EQ(NULL, c.hAdapterMemoryObject);

	memset(&o, 0, sizeof(o));
	o.hPhysicalMemoryObject = c.hPhysicalMemoryObject;
	o.hAdapter = self->virt;
	ASSERT_EQ(STATUS_SUCCESS, DxgkCbOpenPhysicalMemoryObject(&o));
	ASSERT_NE(NULL, o.hAdapterMemoryObject);
	/* One adapter at a time. */
	o2 = o;
	o2.hAdapterMemoryObject = NULL;
	EXPECT_EQ(STATUS_INVALID_DEVICE_STATE, DxgkCbOpenPhysicalMemoryObject(&o2));
	EXPECT_EQ(NULL, o2.hAdapterMemoryObject);
	/* The physical handle is not an adapter memory object. */
	EXPECT_EQ(STATUS_INVALID_HANDLE,
		  allocate_adl(c.hPhysicalMemoryObject, 0, PAGE_SIZE, &a));

	ASSERT_EQ(STATUS_SUCCESS, allocate_adl(o.hAdapterMemoryObject,
					       PAGE_SIZE, 2 * PAGE_SIZE, &a));
	ASSERT_NE(NULL, a.pAdl);
	EXPECT_EQ(2, a.pAdl->PageCount);
	if (!a.pAdl->Flags.Contiguous) {
		ASSERT_NE(NULL, a.pAdl->Pages);
		EXPECT_NE(0, a.pAdl->Pages[0]);
		EXPECT_NE(0, a.pAdl->Pages[1]);
	} else {
		EXPECT_NE(0, a.pAdl->BasePageNumber);
	}
	/* Close while an ADL lives: refused, nothing changes. */
	cl.hAdapterMemoryObject = o.hAdapterMemoryObject;
	EXPECT_EQ(STATUS_INVALID_DEVICE_STATE, DxgkCbClosePhysicalMemoryObject(&cl));
	/* FreeAdl needs the AMO the ADL came from. */
	EXPECT_EQ(STATUS_INVALID_HANDLE,
		  free_adl(c.hPhysicalMemoryObject, a.pAdl));
	EXPECT_EQ(STATUS_SUCCESS, free_adl(o.hAdapterMemoryObject, a.pAdl));
	EXPECT_EQ(STATUS_SUCCESS, DxgkCbClosePhysicalMemoryObject(&cl));
	EXPECT_EQ(STATUS_INVALID_HANDLE, DxgkCbClosePhysicalMemoryObject(&cl));
	/* Closed: Destroy must not name it again. */
	EXPECT_EQ(STATUS_INVALID_HANDLE,
		  destroy(c.hPhysicalMemoryObject, o.hAdapterMemoryObject));
	EXPECT_EQ(STATUS_SUCCESS, destroy(c.hPhysicalMemoryObject, NULL));
	EXPECT_EQ(STATUS_INVALID_HANDLE, destroy(c.hPhysicalMemoryObject, NULL));
}

/*
 * An ADL comes back contiguous only to a driver that asked: without
 * PreferContiguous or RequireContiguous it is a page array, even when the
 * pages are one run (always behind an IOMMU); with PreferContiguous a run
 * may come back as one.
 */
static void adl_forms_on(struct __test_metadata *_metadata, HANDLE adapter)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	DXGKARGCB_ALLOCATE_ADL a;
	UINT i;

	ASSERT_EQ(STATUS_SUCCESS, create_mdl(adapter, 16 * PAGE_SIZE, &c));
	ASSERT_EQ(STATUS_SUCCESS, allocate_adl(c.hAdapterMemoryObject, 0,
					       16 * PAGE_SIZE, &a));
	EXPECT_EQ(0, (int)a.pAdl->Flags.Contiguous);
	ASSERT_NE(NULL, a.pAdl->Pages);
	EXPECT_EQ(16, a.pAdl->PageCount);
	for (i = 0; i < a.pAdl->PageCount; i++)
		EXPECT_NE(0, a.pAdl->Pages[i]);
	EXPECT_EQ(STATUS_SUCCESS, free_adl(c.hAdapterMemoryObject, a.pAdl));

	a.Flags.PreferContiguous = 1;
	ASSERT_EQ(STATUS_SUCCESS, DxgkCbAllocateAdl(&a));
	if (a.pAdl->Flags.Contiguous) {
		EXPECT_NE(0, a.pAdl->BasePageNumber);
	} else {
		EXPECT_NE(NULL, a.pAdl->Pages);
	}
	EXPECT_EQ(STATUS_SUCCESS, free_adl(c.hAdapterMemoryObject, a.pAdl));
	EXPECT_EQ(STATUS_SUCCESS, destroy_created(&c));
}

TEST_F(dxgk, adl_contiguous_only_when_asked)
{
	HANDLE iommu;

	adl_forms_on(_metadata, self->virt);
	if (DxgkLinuxOpenAdapter(NULL, DXGK_LINUX_ADAPTER_IOMMU, &iommu))
		SKIP(return, "the virtual adapter was checked; no adapter behind an IOMMU");
	adl_forms_on(_metadata, iommu);
}

/*
 * Section page protections: read-only and read-write; write-copy and the
 * executable ones are refused (Documentation/porting.rst says why).
 */
TEST_F(dxgk, section_protections)
{
	static const struct {
		ULONG protection;	/* winnt.h's values */
		NTSTATUS status;
	} t[] = {
		{ PAGE_READONLY, STATUS_SUCCESS },
		{ PAGE_READWRITE, STATUS_SUCCESS },
		{ 0x08 /* PAGE_WRITECOPY */, STATUS_INVALID_PARAMETER },
		{ 0x10 /* PAGE_EXECUTE */, STATUS_INVALID_PARAMETER },
		{ 0x20 /* PAGE_EXECUTE_READ */, STATUS_INVALID_PARAMETER },
		{ 0x40 /* PAGE_EXECUTE_READWRITE */, STATUS_INVALID_PARAMETER },
		{ 0x80 /* PAGE_EXECUTE_WRITECOPY */, STATUS_INVALID_PARAMETER },
	};
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		memset(&c, 0, sizeof(c));
		c.Size = PAGE_SIZE;
		c.Type = DXGK_PHYSICAL_MEMORY_TYPE_SECTION;
		c.CacheType = DXGK_MEMORY_CACHING_TYPE_CACHED;
		c.Section.PageProtection = t[i].protection;
		EXPECT_EQ(t[i].status, DxgkCbCreatePhysicalMemoryObject(&c)) {
			TH_LOG("protection 0x%x", (unsigned int)t[i].protection);
		}
		if (c.hPhysicalMemoryObject)
			EXPECT_EQ(STATUS_SUCCESS,
				  destroy(c.hPhysicalMemoryObject, NULL));
	}
}

/*
 * ContiguousMemory with a window that starts above zero is found by a
 * search of the window (as MmAllocateContiguousMemorySpecifyCache does),
 * for a privileged caller outside any memory cgroup: 32 KiB between
 * 256 MiB and 512 MiB above where RAM starts, whose pages the virtual
 * adapter's ADL shows.
 */
TEST_F(dxgk, contiguous_window_above_zero)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	const UINT64 low = system_ram_start() + (256ULL << 20),
		     high = system_ram_start() + (512ULL << 20) - 1;
	DXGKARGCB_ALLOCATE_ADL a;
	UINT64 first;
	FILE *k = fopen("/proc/kallsyms", "r");
	char line[256];
	int searchable = !k;

	while (k && !searchable && fgets(line, sizeof(line), k))
		searchable = !!strstr(line, " alloc_contig_range");
	if (k)
		fclose(k);
	if (!searchable)
		SKIP(return, "kernel without CONFIG_CONTIG_ALLOC: no window search");
	memset(&c, 0, sizeof(c));
	c.hAdapter = self->virt;
	c.Size = 32 << 10;
	c.Type = DXGK_PHYSICAL_MEMORY_TYPE_CONTIGUOUS_MEMORY;
	c.CacheType = DXGK_MEMORY_CACHING_TYPE_CACHED;
	c.ContiguousMemory.LowestAcceptableAddress.QuadPart = low;
	c.ContiguousMemory.HighestAcceptableAddress.QuadPart = high;
	ASSERT_EQ(STATUS_SUCCESS, DxgkCbCreatePhysicalMemoryObject(&c));
	memset(&a, 0, sizeof(a));
	a.hAdapterMemoryObject = c.hAdapterMemoryObject;
	a.Size = c.Size;
	a.Flags.RequireContiguous = 1;
	ASSERT_EQ(STATUS_SUCCESS, DxgkCbAllocateAdl(&a));
	ASSERT_NE(0, (int)a.pAdl->Flags.Contiguous);
	first = (UINT64)a.pAdl->BasePageNumber * PAGE_SIZE;
	EXPECT_LE(low, first);
	EXPECT_GE(high, first + c.Size - 1);
	EXPECT_EQ(STATUS_SUCCESS, free_adl(c.hAdapterMemoryObject, a.pAdl));
	EXPECT_EQ(STATUS_SUCCESS, destroy_created(&c));
}

/* Kernel errors come back as the table's statuses. */
TEST_F(dxgk, kernel_errors_as_ntstatus)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	DXGKARGCB_ALLOCATE_ADL a;

	c.Size = 0;
	EXPECT_EQ(STATUS_INVALID_PARAMETER, create_mdl(self->virt, 0, &c));
	EXPECT_EQ(NULL, c.hPhysicalMemoryObject);
	memset(&c, 0, sizeof(c));
	c.hAdapter = self->virt;
	c.Size = PAGE_SIZE;
	c.Type = (DXGK_PHYSICAL_MEMORY_TYPE)7;
	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  DxgkCbCreatePhysicalMemoryObject(&c));

	ASSERT_EQ(STATUS_SUCCESS, create_mdl(self->virt, 4 * PAGE_SIZE, &c));
	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  allocate_adl(c.hAdapterMemoryObject, 0, PAGE_SIZE + 1, &a));
	a.Size = 8 * PAGE_SIZE;
	EXPECT_EQ(STATUS_INVALID_PARAMETER, DxgkCbAllocateAdl(&a));
	/* RequireContiguous is for CONTIGUOUS and IO_SPACE objects only. */
	a.Size = PAGE_SIZE;
	a.Flags.RequireContiguous = 1;
	EXPECT_EQ(STATUS_INVALID_PARAMETER, DxgkCbAllocateAdl(&a));
	a.Flags.Value = 0x4;
	EXPECT_EQ(STATUS_INVALID_PARAMETER, DxgkCbAllocateAdl(&a));
	EXPECT_EQ(NULL, a.pAdl);
	EXPECT_EQ(STATUS_SUCCESS, destroy_created(&c));
}

/* BAR0 of the first device the module's edu driver has, or 0. */
static UINT64 first_edu_bar0(void)
{
	const char *dir = "/sys/bus/pci/drivers/dxgpmo-edu";
	unsigned long long start = 0;
	char path[512];
	struct dirent *e;
	DIR *d = opendir(dir);
	FILE *f;

	while (d && !start && (e = readdir(d))) {
		if (strncmp(e->d_name, "0000:", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s/resource", dir, e->d_name);
		f = fopen(path, "r");
		if (f) {
			if (fscanf(f, "%llx", &start) != 1)
				start = 0;
			fclose(f);
		}
	}
	if (d)
		closedir(d);
	return start;
}

static sigjmp_buf io_jmp;

static void io_on_segv(int sig)
{
	siglongjmp(io_jmp, 1);
}

/*
 * IO_SPACE maps in kernel mode, as on Windows, and a driver dereferences
 * what it gets: edu's identification register reads through it.  The page
 * holds the DMA engine the module drives, so the view only reads.  User
 * mode is refused.  Unmap gives the range back.
 */
TEST_F(dxgk, map_io_space_kernel_mode)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	DXGKARGCB_MAP_PHYSICAL_MEMORY m;
	volatile ULONG *regs;
	UINT64 bar = first_edu_bar0();
	int wrote = 0;

	if (!bar)
		SKIP(return, "no edu device bound to dxgpmo-edu");
	memset(&c, 0, sizeof(c));
	c.Size = PAGE_SIZE;
	c.Type = DXGK_PHYSICAL_MEMORY_TYPE_IO_SPACE;
	c.CacheType = DXGK_MEMORY_CACHING_TYPE_NON_CACHED;
	c.IOSpace.BaseAddress.QuadPart = bar;
	ASSERT_EQ(STATUS_SUCCESS, DxgkCbCreatePhysicalMemoryObject(&c));
	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  map_memory(c.hPhysicalMemoryObject,
			     DXGK_ACCESS_MODE_USER_MODE, 0, 4, &m));
	EXPECT_EQ(NULL, m.pMappedAddress);
	m.AccessMode = DXGK_ACCESS_MODE_KERNEL_MODE;
	ASSERT_EQ(STATUS_SUCCESS, DxgkCbMapPhysicalMemory(&m));
	ASSERT_NE(NULL, m.pMappedAddress);
	regs = m.pMappedAddress;
	EXPECT_EQ(0x010000ed, regs[0]);
	signal(SIGSEGV, io_on_segv);
	if (!sigsetjmp(io_jmp, 1)) {
		regs[1] = 0x12345678;	/* edu's liveness register */
		wrote = 1;
	}
	signal(SIGSEGV, SIG_DFL);
	EXPECT_EQ(0, wrote);
	EXPECT_EQ(STATUS_SUCCESS, unmap_view(&m));
	/* The range is the process's again. */
	EXPECT_EQ(-1, msync(m.pMappedAddress, PAGE_SIZE, MS_ASYNC));
	EXPECT_EQ(STATUS_SUCCESS, destroy(c.hPhysicalMemoryObject, NULL));
}

/* The requested byte is at pMappedAddress + Offset, in either mode. */
TEST_F(dxgk, map_unaligned_offset)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	DXGKARGCB_MAP_PHYSICAL_MEMORY k, u;
	DXGKARGCB_UNMAP_PHYSICAL_MEMORY um;

	ASSERT_EQ(STATUS_SUCCESS, create_mdl(self->virt, 3 * PAGE_SIZE, &c));
	ASSERT_EQ(STATUS_SUCCESS,
		  map_memory(c.hPhysicalMemoryObject,
			     DXGK_ACCESS_MODE_KERNEL_MODE, PAGE_SIZE + 0x234,
			     100, &k));
	EXPECT_EQ(0x234, k.Offset);
	EXPECT_EQ(PAGE_SIZE, k.Size);
	ASSERT_EQ(STATUS_SUCCESS,
		  map_memory(c.hPhysicalMemoryObject,
			     DXGK_ACCESS_MODE_USER_MODE, 0, 3 * PAGE_SIZE, &u));
	EXPECT_EQ(0, u.Offset);
	EXPECT_EQ(3 * PAGE_SIZE, u.Size);
	((volatile char *)k.pMappedAddress)[k.Offset] = 'W';
	EXPECT_EQ('W', ((volatile char *)u.pMappedAddress)[PAGE_SIZE + 0x234]);

	/* Unmap needs the size MAP returned. */
	um.hPhysicalMemoryObject = c.hPhysicalMemoryObject;
	um.pBaseAddress = k.pMappedAddress;
	um.Size = 100;
	EXPECT_EQ(STATUS_INVALID_PARAMETER, DxgkCbUnmapPhysicalMemory(&um));
	EXPECT_EQ(STATUS_SUCCESS, unmap_view(&k));
	/* A live map keeps the object: Destroy is refused, not a crash. */
	EXPECT_EQ(STATUS_INVALID_DEVICE_STATE, destroy_created(&c));
	EXPECT_EQ(STATUS_SUCCESS, unmap_view(&u));
	EXPECT_EQ(STATUS_SUCCESS, destroy_created(&c));
}

/*
 * Map and Unmap for a driver's whole life: Unmap gives the address range
 * back, as on Windows.  A range left behind per pair would reach
 * vm.max_map_count (65530) after as many maps, and every Map would then
 * fail.  2,000 pairs can outlast the harness's 30 s default on a KASAN
 * kernel under TCG, hence the longer safety net.
 */
TEST_F_TIMEOUT(dxgk, map_unmap_steady, 180)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	DXGKARGCB_MAP_PHYSICAL_MEMORY m;
	int before, after, i, mode;

	ASSERT_EQ(STATUS_SUCCESS, create_mdl(self->virt, 2 * PAGE_SIZE, &c));
	before = steady_count_lines("/proc/self/maps");
	ASSERT_LT(0, before);
	for (i = 0; i < 2000; i++) {
		mode = i & 1 ? DXGK_ACCESS_MODE_USER_MODE :
			       DXGK_ACCESS_MODE_KERNEL_MODE;
		ASSERT_EQ(STATUS_SUCCESS,
			  map_memory(c.hPhysicalMemoryObject, mode, 0,
				     2 * PAGE_SIZE, &m));
		((volatile char *)m.pMappedAddress)[i & 4095] = (char)i;
		ASSERT_EQ(STATUS_SUCCESS, unmap_view(&m));
	}
	after = steady_count_lines("/proc/self/maps");
	TH_LOG("VMAs: %d before 2000 Map/Unmap pairs, %d after", before, after);
	EXPECT_GE(before + 2, after);
	EXPECT_EQ(STATUS_SUCCESS, destroy_created(&c));
}

/* Resource-steady pairs through the library (see steady.h). */

/* What every thread of a variant shares. */
struct steady_dxgk {
	enum steady_pair pair;
	HANDLE adapter;
	SIZE_T segment_page;
};

/* An object of the thread's own: state[0] its PMO, state[1] its AMO. */
static long steady_dxgk_setup(struct steady_thread *t)
{
	const struct steady_dxgk *d = t->arg;
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	NTSTATUS st = create_mdl(d->adapter, 2 * PAGE_SIZE, &c);

	t->state[0] = (uintptr_t)c.hPhysicalMemoryObject;
	t->state[1] = (uintptr_t)c.hAdapterMemoryObject;
	return st;
}

static void steady_dxgk_teardown(struct steady_thread *t)
{
	destroy((HANDLE)(uintptr_t)t->state[0], (HANDLE)(uintptr_t)t->state[1]);
}

static long steady_dxgk_cycle(struct steady_thread *t, unsigned int i)
{
	const struct steady_dxgk *d = t->arg;
	HANDLE hPmo = (HANDLE)(uintptr_t)t->state[0];
	HANDLE hAmo = (HANDLE)(uintptr_t)t->state[1];
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;
	DXGKARGCB_MAP_PHYSICAL_MEMORY m;
	DXGKARGCB_ALLOCATE_ADL a;
	DXGKARG_CREATEMEMORYBASIS b;
	DXGK_LINUX_SESSION *s;
	NTSTATUS st, destroyed;
	HANDLE basis;

	switch (d->pair) {
	case STEADY_MAP_USER:
	case STEADY_MAP_KERNEL:
		st = map_memory(hPmo, d->pair == STEADY_MAP_USER ?
					DXGK_ACCESS_MODE_USER_MODE :
					DXGK_ACCESS_MODE_KERNEL_MODE,
				0, 2 * PAGE_SIZE, &m);
		if (st)
			return st;
		((volatile char *)m.pMappedAddress)[i & 4095] = (char)i;
		return unmap_view(&m);
	case STEADY_ADL:
		st = allocate_adl(hAmo, 0, 2 * PAGE_SIZE, &a);
		return st ? st : free_adl(hAmo, a.pAdl);
	case STEADY_CREATE_WITH_AMO:
		st = create_mdl(d->adapter, PAGE_SIZE, &c);
		return st ? st : destroy_created(&c);
	case STEADY_OPEN_CLOSE:
		st = DxgkLinuxOpenSession(NULL, &s);
		if (st)
			return st;
		return DxgkLinuxCloseSession(s);
	case STEADY_BASIS:
		memset(&b, 0, sizeof(b));
		b.SegmentId = 1;
		b.RangeCount = 1;
		b.Ranges[0].SegmentOffset = t->slot * 4 * d->segment_page;
		b.Ranges[0].SizeInBytes = 4 * d->segment_page;
		basis = DxgkLinuxCreateMemoryBasis(d->adapter, &b);
		if (!basis)
			return DxgkLinuxGetLastStatus();
		st = DxgkLinuxStartDirtyTracking(d->adapter, basis);
		if (!st)
			st = DxgkLinuxStopDirtyTracking(d->adapter, basis);
		destroyed = DxgkLinuxDestroyMemoryBasis(d->adapter, basis);
		return st ? st : destroyed;
	}
	return STATUS_INVALID_PARAMETER;
}

FIXTURE(steady) {
	HANDLE virt;
};

STEADY_VARIANTS(steady);

FIXTURE_SETUP(steady)
{
	ASSERT_EQ(STATUS_SUCCESS,
		  DxgkLinuxOpenAdapter(NULL, DXGK_LINUX_ADAPTER_VIRTUAL,
				       &self->virt));
}

FIXTURE_TEARDOWN(steady)
{
}

TEST_F_TIMEOUT(steady, pairs, 600)
{
	DXGK_LINUX_ADAPTER_INFO info;
	struct steady_dxgk d = { .pair = variant->pair, .adapter = self->virt };
	struct steady_thread proto = {
		.setup = steady_dxgk_setup, .cycle = steady_dxgk_cycle,
		.teardown = steady_dxgk_teardown, .arg = &d,
	};

	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxQueryAdapterInfo(self->virt, &info));
	d.segment_page = info.SegmentCaps.PageSize;
	steady_check(_metadata, &proto, variant->threads,
		     steady_cycles("DXGK_STEADY_CYCLES"));
}

/*
 * Destroy the basis, once, through the adapter that made it; never through
 * wrong, another adapter or a handle that is not an adapter's.
 */
static void destroy_basis_once(struct __test_metadata *_metadata,
			       HANDLE adapter, HANDLE wrong, HANDLE basis)
{
	EXPECT_EQ(STATUS_INVALID_HANDLE,
		  DxgkLinuxDestroyMemoryBasis(wrong, basis));
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxDestroyMemoryBasis(adapter, basis));
	EXPECT_EQ(STATUS_INVALID_HANDLE,
		  DxgkLinuxDestroyMemoryBasis(adapter, basis));
}

/* Memory-basis DDIs: ranges, subranges, buffer sizes, the START count. */
TEST_F(dxgk, memory_basis)
{
	struct {
		DXGKARG_CREATEMEMORYBASIS b;
		DXGK_MEMORYRANGE more[1];
	} two;
	DXGK_LINUX_ADAPTER_INFO info;
	DXGKARG_QUERYDIRTYBITDATA q;
	volatile UCHAR *seg;
	PVOID segment;
	SIZE_T size, ps;
	UCHAR bits[2];
	HANDLE basis;

	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxQueryAdapterInfo(self->virt, &info));
	ps = info.SegmentCaps.PageSize;
	ASSERT_LE(4096, ps);
	ASSERT_LE(64 * ps, info.SegmentSize);
	memset(&two, 0, sizeof(two));
	two.b.SegmentId = 1;
	two.b.RangeCount = 2;
	two.b.Ranges[0].SegmentOffset = 8 * ps;
	two.b.Ranges[0].SizeInBytes = 4 * ps;
	two.more[0].SegmentOffset = 9 * ps;	/* overlaps the first */
	two.more[0].SizeInBytes = 4 * ps;
	EXPECT_EQ(NULL, DxgkLinuxCreateMemoryBasis(self->virt, &two.b));
	EXPECT_EQ(STATUS_CONFLICTING_ADDRESSES, DxgkLinuxGetLastStatus());
	two.more[0].SegmentOffset = info.SegmentSize;
	EXPECT_EQ(NULL, DxgkLinuxCreateMemoryBasis(self->virt, &two.b));
	EXPECT_EQ(STATUS_INVALID_ADDRESS, DxgkLinuxGetLastStatus());
	two.more[0].SegmentOffset = 32 * ps;
	basis = DxgkLinuxCreateMemoryBasis(self->virt, &two.b);
	ASSERT_NE(NULL, basis);
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxGetLastStatus());

	q = (DXGKARG_QUERYDIRTYBITDATA){
		.MemoryBasis = basis, .Buffer = bits,
		.BufferSize = sizeof(bits),
	};
	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  DxgkLinuxQueryDirtyBitData(self->virt, &q));
	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  DxgkLinuxStopDirtyTracking(self->virt, basis));
	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxStartDirtyTracking(self->virt, basis));
	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxStartDirtyTracking(self->virt, basis));

	ASSERT_EQ(STATUS_SUCCESS,
		  DxgkLinuxMapSegment(self->virt, 1, &segment, &size));
	seg = segment;
	seg[9 * ps + 1] = 1;	/* range 0, page 1 */
	seg[34 * ps] = 2;	/* range 1, page 2 */
	q.BufferSize = 0;
	EXPECT_EQ(STATUS_BUFFER_TOO_SMALL,
		  DxgkLinuxQueryDirtyBitData(self->virt, &q));
	/* Range 1 only, from its second page: its page 2 is bit 1. */
	q.SubrangeIndex = 1;
	q.SubrangeOffset = ps;
	q.SubrangeSize = 3 * ps;
	q.BufferSize = 1;
	q.Flags = DXGKARG_QUERYDIRTYBITDATAFLAGS_CLEARDATA;
	bits[0] = 0xff;
	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxQueryDirtyBitData(self->virt, &q));
	EXPECT_EQ(0x02, bits[0]);
	/* The whole basis: range 0 then range 1, no padding between. */
	q.SubrangeIndex = 0;
	q.SubrangeOffset = 0;
	q.SubrangeSize = 0;
	q.BufferSize = 1;
	q.Flags = 0;
	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxQueryDirtyBitData(self->virt, &q));
	EXPECT_EQ(0x02, bits[0]);
	q.Flags = 0x2;
	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  DxgkLinuxQueryDirtyBitData(self->virt, &q));
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxUnmapSegment(segment, size));

	/* Two STARTs: tracking lasts until the second STOP. */
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxStopDirtyTracking(self->virt, basis));
	q.Flags = 0;
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxQueryDirtyBitData(self->virt, &q));
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxStopDirtyTracking(self->virt, basis));
	EXPECT_EQ(STATUS_INVALID_PARAMETER,
		  DxgkLinuxQueryDirtyBitData(self->virt, &q));
	/* The adapter argument must be an adapter handle. */
	destroy_basis_once(_metadata, self->virt, basis, basis);
}

/* The dirty-bit DDIs of one adapter never act on another adapter's basis. */
TEST_F(dxgk, basis_of_another_adapter_refused)
{
	DXGKARG_CREATEMEMORYBASIS b;
	DXGKARG_QUERYDIRTYBITDATA q;
	DXGK_LINUX_ADAPTER_INFO info;
	HANDLE other, basis;
	UCHAR bits[1];

	if (DxgkLinuxOpenAdapter(NULL, DXGK_LINUX_ADAPTER_DMA_ENGINE, &other))
		SKIP(return, "needs a second adapter (an edu)");
	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxQueryAdapterInfo(self->virt, &info));
	memset(&b, 0, sizeof(b));
	b.SegmentId = 1;
	b.RangeCount = 1;
	b.Ranges[0].SizeInBytes = 4 * info.SegmentCaps.PageSize;
	basis = DxgkLinuxCreateMemoryBasis(self->virt, &b);
	ASSERT_NE(NULL, basis);
	EXPECT_EQ(STATUS_INVALID_HANDLE,
		  DxgkLinuxStartDirtyTracking(other, basis));
	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxStartDirtyTracking(self->virt, basis));
	q = (DXGKARG_QUERYDIRTYBITDATA){
		.MemoryBasis = basis, .Buffer = bits,
		.BufferSize = sizeof(bits),
	};
	EXPECT_EQ(STATUS_INVALID_HANDLE, DxgkLinuxQueryDirtyBitData(other, &q));
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxQueryDirtyBitData(self->virt, &q));
	EXPECT_EQ(STATUS_INVALID_HANDLE, DxgkLinuxStopDirtyTracking(other, basis));
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxStopDirtyTracking(self->virt, basis));
	destroy_basis_once(_metadata, self->virt, other, basis);
}

/* Explicit sessions: their handles never mix; closing one ends its objects. */
TEST_F(dxgk, sessions)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c, d;
	DXGKARGCB_OPEN_PHYSICAL_MEMORY_OBJECT o;
	DXGK_LINUX_SESSION *s1, *s2;
	HANDLE a1, a2;

	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxOpenSession(NULL, &s1));
	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxOpenSession(NULL, &s2));
	DxgkLinuxSetThreadSession(s1);
	ASSERT_EQ(STATUS_SUCCESS,
		  DxgkLinuxOpenAdapter(NULL, DXGK_LINUX_ADAPTER_VIRTUAL, &a1));
	ASSERT_EQ(STATUS_SUCCESS, create_mdl(NULL, PAGE_SIZE, &c));
	DxgkLinuxSetThreadSession(s2);
	ASSERT_EQ(STATUS_SUCCESS,
		  DxgkLinuxOpenAdapter(NULL, DXGK_LINUX_ADAPTER_VIRTUAL, &a2));
	/* Same adapter, same id, but another session's handle. */
	EXPECT_NE(a1, a2);
	ASSERT_EQ(STATUS_SUCCESS, create_mdl(NULL, PAGE_SIZE, &d));
	EXPECT_NE(c.hPhysicalMemoryObject, d.hPhysicalMemoryObject);
	DxgkLinuxSetThreadSession(NULL);

	memset(&o, 0, sizeof(o));
	o.hPhysicalMemoryObject = c.hPhysicalMemoryObject;
	o.hAdapter = a2;
	EXPECT_EQ(STATUS_INVALID_HANDLE, DxgkCbOpenPhysicalMemoryObject(&o));
	o.hAdapter = self->virt;	/* the default session's */
	EXPECT_EQ(STATUS_INVALID_HANDLE, DxgkCbOpenPhysicalMemoryObject(&o));
	o.hAdapter = a1;
	EXPECT_EQ(STATUS_SUCCESS, DxgkCbOpenPhysicalMemoryObject(&o));

	/* Closing s1 tears down what it held; its handles go stale. */
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxCloseSession(s1));
	EXPECT_EQ(STATUS_INVALID_HANDLE,
		  destroy(c.hPhysicalMemoryObject, o.hAdapterMemoryObject));
	EXPECT_EQ(STATUS_INVALID_HANDLE, DxgkLinuxCloseSession(s1));
	EXPECT_EQ(STATUS_SUCCESS, destroy(d.hPhysicalMemoryObject, NULL));
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxCloseSession(s2));
}

static void *other_thread(void *arg)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT *c = arg;

	/* A new thread starts on the process's default session. */
	create_mdl(NULL, PAGE_SIZE, c);
	return NULL;
}

/*
 * In a forked child: an object of the child's own default session, made
 * and destroyed.  0; 1 when Create failed or its handle is not_mine (unless
 * NULL), 2 when Destroy failed.
 */
static int child_own_object(HANDLE not_mine)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT mine;

	if (create_mdl(NULL, PAGE_SIZE, &mine) != STATUS_SUCCESS ||
	    (not_mine && mine.hPhysicalMemoryObject == not_mine))
		return 1;
	return destroy(mine.hPhysicalMemoryObject, NULL) == STATUS_SUCCESS ?
	       0 : 2;
}

/* The forked child pid exits, with 0. */
static void expect_child_ok(struct __test_metadata *_metadata, pid_t pid)
{
	int status;

	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* The thread selection is per thread; the default is per process. */
TEST_F(dxgk, thread_and_fork)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c, t;
	DXGK_LINUX_SESSION *s;
	pthread_t thread;
	pid_t pid;
	int ret;

	ASSERT_EQ(STATUS_SUCCESS, create_mdl(NULL, PAGE_SIZE, &c));
	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxOpenSession(NULL, &s));
	DxgkLinuxSetThreadSession(s);
	memset(&t, 0, sizeof(t));
	ASSERT_EQ(0, pthread_create(&thread, NULL, other_thread, &t));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	DxgkLinuxSetThreadSession(NULL);
	ASSERT_NE(NULL, t.hPhysicalMemoryObject);
	/* Made in the default session: survives closing s. */
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxCloseSession(s));
	EXPECT_EQ(STATUS_SUCCESS, destroy(t.hPhysicalMemoryObject, NULL));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* The parent's handle is not the child's ... */
		if (destroy(c.hPhysicalMemoryObject, NULL) !=
		    STATUS_INVALID_HANDLE)
			_exit(1);
		/* ... and the child gets a session of its own. */
		ret = child_own_object(c.hPhysicalMemoryObject);
		_exit(ret ? ret + 1 : 0);
	}
	expect_child_ok(_metadata, pid);
	/* The parent's object is still there. */
	EXPECT_EQ(STATUS_SUCCESS, destroy(c.hPhysicalMemoryObject, NULL));
}

static volatile int busy_stop;

/* Keeps taking the library's lock while the main thread forks. */
static void *busy_thread(void *arg)
{
	DXGKARGCB_CREATE_PHYSICAL_MEMORY_OBJECT c;

	DxgkLinuxSetThreadSession(arg);
	while (!busy_stop)
		if (create_mdl(NULL, PAGE_SIZE, &c) == STATUS_SUCCESS)
			destroy(c.hPhysicalMemoryObject, NULL);
	return NULL;
}

/*
 * fork() while another thread is in the library and with a thread session
 * set in the forking thread: the child neither deadlocks nor inherits
 * that session, and makes its calls on its own default session.
 */
TEST_F(dxgk, fork_while_threads_use_sessions)
{
	DXGK_LINUX_SESSION *s, *busy;
	pthread_t thread;
	pid_t pid;
	int i;

	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxOpenSession(NULL, &s));
	ASSERT_EQ(STATUS_SUCCESS, DxgkLinuxOpenSession(NULL, &busy));
	busy_stop = 0;
	ASSERT_EQ(0, pthread_create(&thread, NULL, busy_thread, busy));
	DxgkLinuxSetThreadSession(s);
	for (i = 0; i < 50; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			alarm(10);
			_exit(child_own_object(NULL));
		}
		expect_child_ok(_metadata, pid);
	}
	busy_stop = 1;
	pthread_join(thread, NULL);
	DxgkLinuxSetThreadSession(NULL);
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxCloseSession(s));
	EXPECT_EQ(STATUS_SUCCESS, DxgkLinuxCloseSession(busy));
}

TEST_HARNESS_MAIN
