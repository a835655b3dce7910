/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness/thread.h -
 * threads (clone + futex join), and processes sharing futex words.
 * Part of harness.h, which includes every part in order: include that.
 */

/* --- threads ---------------------------------------------------------------
 * clone(CLONE_VM|...|CLONE_THREAD) on a stack of our own; the kernel writes
 * the tid at start and clears it (and wakes the futex) at exit: that is the
 * join.
 */
#define THREAD_STACK	(64 * 1024)
#define CLONE_THREAD_FLAGS	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
				 CLONE_THREAD | CLONE_SYSVSEM | \
				 CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)

struct thread {
	int (*fn)(struct thread *t);
	volatile int tid;
	int id;
	void *arg;
	char *stack;
};

static void thread_start(struct thread *t)
{
	unsigned long top = ((unsigned long)t->stack + THREAD_STACK) & ~15UL;
	long ret;
#if defined(__x86_64__)
	/* the child pops fn and t, calls fn(t) at a 16-byte aligned rsp */
	unsigned long *sp = (unsigned long *)(top - 32);
	register long r10 __asm__("r10") = (long)&t->tid;
	register long r8 __asm__("r8") = 0;

	sp[0] = (unsigned long)t->fn;
	sp[1] = (unsigned long)t;
	__asm__ volatile(
		"syscall\n\t"
		"test %%rax, %%rax\n\t"
		"jnz 1f\n\t"
		"popq %%rax\n\t"
		"popq %%rdi\n\t"
		"call *%%rax\n\t"
		"movl %%eax, %%edi\n\t"
		"movl %[nr_exit], %%eax\n\t"
		"syscall\n\t"
		"hlt\n"
		"1:\n\t"
		: "=a"(ret)
		: "0"(__NR_clone), "D"(CLONE_THREAD_FLAGS), "S"(sp),
		  "d"(&t->tid), "r"(r10), "r"(r8), [nr_exit] "i"(__NR_exit)
		: "rcx", "r11", "memory", "cc");
#else
	/* fn(t) is called with t at a 16-byte aligned stack slot */
	unsigned long *sp = (unsigned long *)(top - 16);

	sp[0] = (unsigned long)t;
	*--sp = (unsigned long)t->fn;
	__asm__ volatile(
		"int $0x80\n\t"
		"test %%eax, %%eax\n\t"
		"jnz 1f\n\t"
		"popl %%eax\n\t"
		"call *%%eax\n\t"
		"movl %%eax, %%ebx\n\t"
		"movl %[nr_exit], %%eax\n\t"
		"int $0x80\n\t"
		"hlt\n"
		"1:\n\t"
		: "=a"(ret)
		: "0"(__NR_clone), "b"(CLONE_THREAD_FLAGS), "c"(sp),
		  "d"(&t->tid), "S"(0), "D"(&t->tid), [nr_exit] "i"(__NR_exit)
		: "memory", "cc");
#endif
	if (ret < 0)
		fail("clone: errno %ld", -ret);
}

static void thread_join(struct thread *t)
{
	int tid;

	while ((tid = t->tid) != 0)
		sys_futex(&t->tid, FUTEX_WAIT, tid);
}

/*
 * Start n threads running fn, each with its own pre-touched stack (so that
 * stacks do not show up in RSS figures taken after this).
 */
static struct thread *threads_create(int n, int (*fn)(struct thread *), void *arg)
{
	struct thread *t = map_anon(n * sizeof(*t));
	char *stacks = map_anon((unsigned long)n * THREAD_STACK);
	int i;

	memset(stacks, 0, (unsigned long)n * THREAD_STACK);
	for (i = 0; i < n; i++) {
		t[i].fn = fn;
		t[i].id = i;
		t[i].arg = arg;
		t[i].stack = stacks + (unsigned long)i * THREAD_STACK;
	}
	return t;
}

/* A start line: threads wait on it so that their faults overlap. */
static volatile int start_gate;

static void gate_wait(void)
{
	while (!start_gate)
		sys_futex(&start_gate, FUTEX_WAIT, 0);
}

/* Start all n threads and let them go at once (past gate_wait()). */
static void threads_start(struct thread *t, int n)
{
	int i;

	start_gate = 0;
	for (i = 0; i < n; i++)
		thread_start(&t[i]);
	start_gate = 1;
	sys_futex(&start_gate, FUTEX_WAKE, 0x7fffffff);
}

static void threads_join(struct thread *t, int n)
{
	int i;

	for (i = 0; i < n; i++)
		thread_join(&t[i]);
}

/* Start all n threads, let them go at once, wait for all of them. */
static void threads_run(struct thread *t, int n)
{
	threads_start(t, n);
	threads_join(t, n);
}

/*
 * n threads running fn and one more running other (the one that changes the
 * mappings under them), let go at once; returns the milliseconds until all
 * of them ended.
 */
static long threads_run_with(int n, int (*fn)(struct thread *),
			     int (*other)(struct thread *))
{
	struct thread *t = threads_create(n + 1, fn, NULL);
	long ms;

	t[n].fn = other;
	ms = now_ms();
	threads_run(t, n + 1);
	return now_ms() - ms;
}

/*
 * touch_slice - thread body for Lameter's case: thread i first-touches its
 * own slice of one area, pages [i * pages, (i + 1) * pages), with the
 * pattern.  The struct slices is the threads' arg.
 */
struct slices {
	unsigned char *area;
	unsigned long pages;	/* per thread */
	unsigned int seed;
};

static int touch_slice(struct thread *t)
{
	const struct slices *s = t->arg;
	unsigned long p = t->id * s->pages, end = p + s->pages;

	gate_wait();
	for (; p < end; p++)
		fill_page((unsigned int *)(s->area + p * PAGE_SIZE), s->seed, p);
	return 0;
}

/*
 * Fork a child that reads (write == 0) or writes one word at addr and then
 * exits 0; return its wait status, for the tests that expect SIGSEGV there.
 */
static int touch_in_child(void *addr, int write)
{
	volatile unsigned int *w = addr;
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		if (write)
			*w = 0x5e95e95eu;
		else
			(void)*w;
		exit_group(0);
	}
	if (pid < 0)
		fail("fork: errno %d", errno);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			fail("waitpid %d: errno %d", pid, errno);
	return status;
}

/* --- processes ------------------------------------------------------------ */

#define PR_SET_PDEATHSIG	1

/*
 * fork(), the child set to be killed when the test process ends first (a
 * failing test leaves no child behind, waiting for a parent that is gone).
 */
static pid_t fork_child(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		fail("fork: errno %d", errno);
	if (pid == 0) {
		my_syscall2(__NR_prctl, PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			exit_group(1);
	}
	return pid;
}

/* A page shared by the test's processes, for futex words and results. */
static void *map_shared(unsigned long len)
{
	return map_anon_as(len, MAP_SHARED);
}

/* Add to a futex word in shared memory and wake its waiters. */
static void futex_add(volatile int *word, int n)
{
	__sync_fetch_and_add(word, n);
	sys_futex(word, FUTEX_WAKE, 0x7fffffff);
}

/* Wait until a futex word in shared memory reaches at least v. */
static void futex_wait_for(volatile int *word, int v)
{
	int cur;

	while ((cur = *word) < v)
		sys_futex(word, FUTEX_WAIT, cur);
}

/* Reap child pid; returns its exit status, or 128 + signal when killed. */
static int reap(pid_t pid)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
