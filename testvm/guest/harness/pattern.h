/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/pattern.h - the page pattern every test writes, and its digest.
 * Part of harness.h, which includes every part in order: include that.
 */

/* --- the page pattern ------------------------------------------------------
 * Word w of page p of a test seeded with s; a page full of it can't be
 * mistaken for another page's, another test's, or zeroes.
 */
static inline unsigned int pattern(unsigned int s, unsigned int p, unsigned int w)
{
	unsigned int x = s ^ (p * 0x9e3779b1u) ^ (w * 0x85ebca6bu);

	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

static void fill_page(unsigned int *page, unsigned int seed, unsigned int p)
{
	unsigned int w;

	for (w = 0; w < PAGE_WORDS; w++)
		page[w] = pattern(seed, p, w);
}

/*
 * Test-only: ptltest.corrupt=NAME on the kernel command line makes test NAME
 * (every test, with "all") flip one byte of the data it is about to verify,
 * to show that its verification can fail (testvm/selftest/qemu_corrupt.sh).
 */
static void corrupt_if_asked(void *data)
{
	char want[32];

	if (cmdline_arg("ptltest.corrupt", want, sizeof(want)) &&
	    (!strcmp(want, test_name) || !strcmp(want, "all")))
		((volatile unsigned char *)data)[123] ^= 0x5a;
}

/* FNV-1a over 32-bit words: the digest the host compares across kernels. */
#define DIGEST_INIT	2166136261u
static inline unsigned int digest_word(unsigned int d, unsigned int v)
{
	return (d ^ v) * 16777619u;
}

/*
 * Check page p against the pattern and fold it into *digest.  Returns the
 * index of the first wrong word, or -1 when the page is intact.
 */
static int check_page(const unsigned int *page, unsigned int seed,
		      unsigned int p, unsigned int *digest)
{
	unsigned int w, d = *digest;

	for (w = 0; w < PAGE_WORDS; w++) {
		if (page[w] != pattern(seed, p, w))
			return w;
		d = digest_word(d, page[w]);
	}
	*digest = d;
	return -1;
}

/* Fill the n pages at base with seed's pattern, page p as number p. */
static void fill_pages(void *base, unsigned long n, unsigned int seed)
{
	unsigned long p;

	for (p = 0; p < n; p++)
		fill_page((unsigned int *)((char *)base + p * PAGE_SIZE), seed, p);
}

/*
 * Check the n pages at base against seed's pattern, in order, folding each
 * into *digest.  Returns the first wrong page, its wrong word in *word, or
 * -1 when all are intact.
 */
static long check_pages(const void *base, unsigned long n, unsigned int seed,
			unsigned int *digest, int *word)
{
	unsigned long p;

	for (p = 0; p < n; p++) {
		*word = check_page((const unsigned int *)((const char *)base + p * PAGE_SIZE),
				   seed, p, digest);
		if (*word >= 0)
			return p;
	}
	return -1;
}
