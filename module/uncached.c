// SPDX-License-Identifier: GPL-2.0
/*
 * Non-cached memory in 8-byte words (uncached.h says why not the
 * kernel's string routines).  User memory is copied through a cached
 * bounce buffer, so that the user copy may be as wide as it likes and
 * may fault without holding up anything uncached.
 */
#include <linux/mm.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "uncached.h"

/* A multiple of 8: every piece but a request's last ends on a word. */
#define DXGPMO_UC_BOUNCE	PAGE_SIZE

/*
 * Through the page's linear map, whose memory type x86 switched to the
 * block's (pool.c; arm64 pools nothing), never a mapping of its own,
 * which would be a second, conflicting type.  memset64() is rep stosq on
 * x86: a word per store.
 */
void dxgpmo_uc_zero_page(struct page *page)
{
	memset64(page_address(page), 0, PAGE_SIZE / sizeof(u64));
}

/*
 * Four words an iteration: fewer branches between the accesses (a
 * plain loop of one word measured 2.2x the copy from a write-combined
 * view under TCG, where an access costs the same whatever its memory
 * type: that is the loop's own cost).
 */
#define DXGPMO_UC_UNROLL	4

/*
 * Words whole: the load of a word that straddles the request's ends
 * reads bytes of the same view it was not asked for, which is harmless.
 */
static void dxgpmo_uc_load(u64 *dst, const u64 *uc, size_t words)
{
	size_t i = 0;

	for (; i + DXGPMO_UC_UNROLL <= words; i += DXGPMO_UC_UNROLL) {
		u64 w0 = READ_ONCE(uc[i]), w1 = READ_ONCE(uc[i + 1]);
		u64 w2 = READ_ONCE(uc[i + 2]), w3 = READ_ONCE(uc[i + 3]);

		dst[i] = w0;
		dst[i + 1] = w1;
		dst[i + 2] = w2;
		dst[i + 3] = w3;
	}
	for (; i < words; i++)
		dst[i] = READ_ONCE(uc[i]);
}

/*
 * A store must not write bytes it was not given (a device may be writing
 * them), so an unaligned end is stored a byte at a time: at most 7
 * bytes at each end of a request.
 */
static void dxgpmo_uc_store(u8 *uc, const u8 *src, size_t length)
{
	const size_t step = DXGPMO_UC_UNROLL * sizeof(u64);

	for (; length && !IS_ALIGNED((unsigned long)uc, 8); length--)
		WRITE_ONCE(*uc++, *src++);
	for (; length >= step; length -= step, uc += step, src += step) {
		const u64 *from = (const u64 *)src;
		u64 *to = (u64 *)uc;

		WRITE_ONCE(to[0], from[0]);
		WRITE_ONCE(to[1], from[1]);
		WRITE_ONCE(to[2], from[2]);
		WRITE_ONCE(to[3], from[3]);
	}
	for (; length >= 8; length -= 8, uc += 8, src += 8)
		WRITE_ONCE(*(u64 *)uc, *(const u64 *)src);
	for (; length; length--)
		WRITE_ONCE(*uc++, *src++);
}

/*
 * Pieces of the bounce's size, each from its first byte's word; every
 * piece but the last ends on a word, and the bounce offset of a byte
 * has the alignment of its place in the view.
 */
int dxgpmo_uc_copy_user(void *uc, void __user *ubuf, size_t length,
			bool write)
{
	unsigned long head = (unsigned long)uc & 7;
	u8 *word = (u8 *)uc - head;
	size_t done, n;
	u8 *bounce;
	int ret = 0;

	bounce = kmalloc(DXGPMO_UC_BOUNCE, GFP_KERNEL);
	if (!bounce)
		return -ENOMEM;
	for (done = 0; done < length; done += n, word += head + n, head = 0) {
		n = min_t(size_t, length - done, DXGPMO_UC_BOUNCE - head);
		if (write) {
			if (copy_from_user(bounce + head, ubuf + done, n)) {
				ret = -EFAULT;
				break;
			}
			dxgpmo_uc_store(word + head, bounce + head, n);
		} else {
			dxgpmo_uc_load((u64 *)bounce, (const u64 *)word,
				       DIV_ROUND_UP(head + n, 8));
			if (copy_to_user(ubuf + done, bounce + head, n)) {
				ret = -EFAULT;
				break;
			}
		}
	}
	kfree(bounce);
	return ret;
}
