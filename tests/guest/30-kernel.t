#!/bin/bash
# The balancenuma patch series, tested inside one 2-node guest: each kt-*
# program prints TAP; its results are renumbered here, prefixed with the
# program's name. A program that dies before its plan counts as a failure.
# kt-migrate's ping-pong keeps both vCPUs busy and counts their turns, and
# kt-ratewindow bounds the gap between scans in the host's seconds (4 s):
# beside another guest suite at load 11 a gap came out 12.41 s (1.12-1.15 s
# at load 5-7.5), so no other guest suite runs beside this one:
# bnb-test: alone
. "$(dirname "$0")/../lib/tap.sh"
require_guest "balancenuma kernel tests"

# BNB_KT_PROGS="kt-a kt-b" runs only those programs.
all_progs=(kt-sysctl kt-disabled kt-firstnode kt-placement kt-migrate kt-ratelimit kt-ratewindow kt-scanadapt
	kt-hugefault)
read -r -a progs <<< "${BNB_KT_PROGS:-${all_progs[*]}}"

cmd=
for p in "${progs[@]}"; do
	cmd+="echo '# kt: $p'; $p; echo \"# kt-exit: $p \$?\"; "
done

dir=$(run_dir kernel)
bnb_vm "$dir" --initrd "$BNB_ROOT/build/guest/initramfs-kt.cpio" --nodes 2 --timeout 600 -- "$cmd" 2>"$dir/stderr"
rc=$?
case $rc in
0 | 1) ;;
*)
	not_ok "guest ran the kernel tests (bnb-vm exit $rc: $(result_field "$dir" status))"
	sed 's/^/# /' "$dir/stderr"
	;;
esac

# Re-emit each program's TAP; remember each one's plan, results, failures
# and exit status.
declare -A planned exited ran failing
prog=
while IFS= read -r line; do
	case $line in
	"# kt: "*) prog=${line#"# kt: "} ;;
	"# kt-exit: "*)
		read -r p status <<< "${line#"# kt-exit: "}"
		exited[$p]=$status
		;;
	"1.."*) planned[$prog]=${line#1..} ;;
	"#"*) echo "$line" ;;
	*)
		if [[ $line =~ ^(not\ )?ok\ [0-9]+\ -\ (.*)$ ]]; then
			ran[$prog]=$((${ran[$prog]:-0} + 1))
			if [ -z "${BASH_REMATCH[1]}" ]; then
				ok "$prog: ${BASH_REMATCH[2]}"
			else
				failing[$prog]=1
				not_ok "$prog: ${BASH_REMATCH[2]}"
			fi
		else
			diag "$prog: $line"
		fi
		;;
	esac
done < "$dir/out.log"

# A program that stopped early, ran another count than it planned, or
# exited non-zero with every test ok fails here.
for p in "${progs[@]}"; do
	if [ -z "${planned[$p]:-}" ]; then
		not_ok "$p ran to its plan (exit ${exited[$p]:-none})"
	elif [ "${planned[$p]}" != "${ran[$p]:-0}" ]; then
		not_ok "$p: planned ${planned[$p]} tests, ran ${ran[$p]:-0}"
	elif [ "${exited[$p]:-none}" != 0 ] && [ -z "${failing[$p]:-}" ]; then
		not_ok "$p exited ${exited[$p]:-none} with no failing test"
	fi
done

[ -n "${BNB_KEEP:-}" ] || rm -rf "$dir"
done_testing
