/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/result.h - results: TEST_MAIN(), pass(), fail(), ASSERT(), skip().
 * Part of harness.h, which includes every part in order: include that.
 */

static const char *test_name = "?";

/* --- results ------------------------------------------------------------- */

/*
 * TEST_MAIN() opens a test's main function.  The runner (init.c) starts a
 * test with its name as argv[0], so the name is written once, as the file's
 * name, and never typed in the test.
 */
#define TEST_MAIN()						\
	static int test_main(void);				\
	int main(int argc, char **argv)				\
	{							\
		const char *n = argc ? argv[0] : "?", *s;	\
								\
		for (s = n; *s; s++)				\
			if (*s == '/')				\
				n = s + 1;			\
		test_name = n;					\
		return test_main();				\
	}							\
	static int test_main(void)

static __attribute__((noreturn)) void pass(void)
{
	exit_group(0);
}

static __attribute__((noreturn, format(printf, 1, 2))) void fail(const char *fmt, ...)
{
	va_list ap;

	printf("# %s: FAIL ", test_name);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	printf("\n");
	exit_group(1);
}

/* ASSERT(cond): fail, naming the file, line and condition, unless cond holds */
#define ASSERT(cond)							\
	do {								\
		if (!(cond))						\
			fail("%s:%d: %s", __FILE__, __LINE__, #cond);	\
	} while (0)

static __attribute__((noreturn, format(printf, 1, 2))) void skip(const char *fmt, ...)
{
	va_list ap;
	int fd = open(SKIP_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	/* nolibc (6.1) prints only to the std streams: make stdout the file */
	if (fd >= 0)
		dup2(fd, 1);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	exit_group(EXIT_SKIP);
}
