// SPDX-License-Identifier: GPL-2.0
/*
 * /bin/lbs-mark in the guest of bench/kernel-repeat.sh --insns: executes
 * the no-op that bench/qemu-insn.c counts as a mark, and exits 0.
 *
 *   lbs-mark      a plain mark (the plugin logs the instruction count)
 *   lbs-mark p    a profile mark (also opens or closes a profile window)
 *
 * Static and without libc (x86_64 only), so that it needs nothing in the
 * initramfs and its own start-up adds the fewest instructions.
 */
__asm__(".globl _start\n"
	"_start:\n"
	"	cmpq $1, (%rsp)\n"              /* argc */
	"	je 1f\n"
	"	.byte 0x0f, 0x1f, 0x80, 'L', 'B', 'S', '2'\n"
	"	jmp 2f\n"
	"1:	.byte 0x0f, 0x1f, 0x80, 'L', 'B', 'S', '1'\n"
	"2:	movl $60, %eax\n"               /* exit(0) */
	"	xorl %edi, %edi\n"
	"	syscall\n");
