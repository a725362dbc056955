#!/bin/sh
# sampler.sh: the node sampler. Beside each benchmark repetition, it reads the node's CPU time
# (/proc/stat) and block-device counters (/proc/diskstats) every LAB_SAMPLER_INTERVAL seconds and,
# once the repetition is over, writes one small summary: what CloudWatch cannot see from outside
# the node (CPU steal, softirq, iowait; each disk's operations, bytes, queue depth and busy time).
# lib.sh runs it in the background of the benchmark script itself (lab_util_begin / lab_util_end):
# same container, same user, nothing beyond the restricted Pod Security profile. /proc/stat and
# /proc/diskstats are not namespaced: inside a container they show the whole node; the runtime
# masks neither (containerd pkg/oci/spec.go `populateDefaultUnixSpec` MaskedPaths: /proc/acpi,
# /proc/asound, /proc/kcore, /proc/keys, /proc/latency_stats, /proc/timer_list, /proc/timer_stats,
# /proc/sched_debug, /sys/firmware, /sys/devices/virtual/powercap, /proc/scsi), and /sys (read-only
# in a container) lists the block devices.
#
#   sh sampler.sh run OUT STOP PARENT   sample until the file STOP exists (SIGUSR1 wakes it up
#                                       at once), then write the summary to OUT (whole: written
#                                       aside, then renamed); when process PARENT is gone first
#                                       (the benchmark failed), write nothing. The snapshots wait
#                                       in OUT.snapshots (a few hundred bytes each) meanwhile.
#   sh sampler.sh summarize             read snapshots (below) on stdin, print the summary
#   sh sampler.sh snapshot              print one snapshot of every disk and NFS mount (no `N` line)
#
# Environment [default]:
#   LAB_SAMPLER_INTERVAL  seconds between two snapshots, a positive number [1]
#   LAB_PROC              where proc is mounted [/proc]
#   LAB_SYS_BLOCK         sysfs' block directory: which devices are whole disks [/sys/block]
#   LAB_MOUNTSTATS        the NFS client's per-mount counters [$LAB_PROC/self/mountstats]
#
# Snapshots (the `run` loop's output, the `summarize` input): first `N <CPUs>` (the /proc/stat
# `cpuN` lines), then per snapshot one line each, then `E`:
#   T <seconds since boot, /proc/uptime's first field>
#   C <the /proc/stat "cpu" line's fields: user nice system idle iowait irq softirq steal ...>
#   D <name> <the /proc/diskstats fields after the name>
#   M <NFS mount point> <READ ops, rtt ms, execute ms> <WRITE ops, rtt ms, execute ms> <server read bytes> <server written bytes>
# Fields (Linux Documentation/filesystems/proc.rst "1.7 Miscellaneous kernel statistics in
# /proc/stat": user, nice, system, idle, iowait, irq, softirq, steal, then guest and guest_nice,
# in USER_HZ ticks; Documentation/admin-guide/iostats.rst for /proc/diskstats: reads completed,
# reads merged, sectors read, ms reading, writes completed, writes merged, sectors written, ms
# writing, I/Os in progress, ms doing I/Os, weighted ms doing I/Os, then discard and flush fields;
# sectors are 512 bytes whatever the device, Documentation/block/stat.rst). guest and guest_nice
# are already counted in user and nice (kernel/sched/cputime.c `account_guest_time`), so the CPU
# total is the sum of the first eight fields and the eight percentages add up to 100.
#
# Summary (lines of `key=mean/max`: mean over the intervals between two snapshots that were kept,
# max of those intervals):
#   window seconds=<s> measured=<s kept> snapshots=<n> interval=<s> cpus=<n> disks=<shown>
#          omitted=<not shown> dropped=<intervals> [why=cpu|disk|cpu,disk]
# An interval in which any counter went down is dropped, counted and said (`why`), never turned
# into a negative rate: the iowait field "will decrease in certain conditions" (Documentation/filesystems/proc.rst,
# "1.7 Miscellaneous kernel statistics in /proc/stat", iowait note 3), and the diskstats fields "only increase
# (unless they overflow and wrap)", fields 4, 8, 9, 10 and 11 being unsigned int (32 bit)
# (Documentation/admin-guide/iostats.rst). Utilization is advisory: the benchmark's own result
# never depends on it (components/bench/collect.ts).
#   cpu user=… nice=… system=… idle=… iowait=… irq=… softirq=… steal=… busy=…  (percent of all CPUs;
#       busy = 100 − idle − iowait)
#   disk name=<dev> readOps=… writeOps=… readBytes=… writeBytes=… queueDepth=… busy=…
#   nfs mount=<dir> readOps=… writeOps=… readBytes=… writeBytes=… readRtt=… writeRtt=… readExe=… writeExe=…
# (an NFS mount's READ/WRITE operations per second, server bytes per second, and per operation the
# mean round trip and execute time in ms, the window line then saying nfs=<mounts shown>: at most 2,
# busiest first, and then at most 3 lines of NFS mounts and disks together, for the log budget)
# readOps/writeOps per second, readBytes/writeBytes whole bytes per second, queueDepth the average
# number of I/Os in flight (weighted ms / elapsed ms, iostat's aqu-sz), busy the percent of time
# with at least one I/O in flight (ms doing I/Os / elapsed ms, iostat's %util: a device serving
# requests in parallel can be 100 % busy and not saturated). Only whole disks (the entries of
# LAB_SYS_BLOCK but loop, ram and zram devices; every device when it cannot be read) that did I/O
# in the kept intervals are shown, the 4 with the most operations, so a summary stays under 1600
# bytes of container log (core/parsers/sampler.ts SAMPLER_LOG_BYTES_PER_REP). Fewer than two
# snapshots, no time between them, or every interval dropped: the window line alone.
# Exit status: 0; 2 usage problem.
set -eu

LAB_SAMPLER_INTERVAL=${LAB_SAMPLER_INTERVAL:-1}
LAB_PROC=${LAB_PROC:-/proc}
LAB_SYS_BLOCK=${LAB_SYS_BLOCK:-/sys/block}
LAB_MOUNTSTATS=${LAB_MOUNTSTATS:-$LAB_PROC/self/mountstats}

usage() {
  printf '%s\n' "usage: sh sampler.sh run OUT STOP PARENT | sh sampler.sh summarize | sh sampler.sh snapshot" >&2
  exit 2
}

# The summary: one awk program over the snapshot stream (POSIX awk: Debian's mawk runs it).
summarize() {
  awk -v interval="$LAB_SAMPLER_INTERVAL" -v maxdisks=4 -v maxnfs=2 '
    function fmt(x) { return sprintf("%.2f", x) }
    # Puts the (at most) max entries of names[1..k] with the highest counts first, ties by name; returns how many.
    function busiest(names, counts, k, max,    a, b, best, t, shown) {
      shown = k < max ? k : max
      for (a = 1; a <= shown; a++) {
        best = a
        for (b = a + 1; b <= k; b++) if (counts[b] > counts[best] || (counts[b] == counts[best] && names[b] < names[best])) best = b
        t = names[a]; names[a] = names[best]; names[best] = t
        t = counts[a]; counts[a] = counts[best]; counts[best] = t
      }
      return shown
    }
    function windowline(shown, omitted) {
      printf "window seconds=%s measured=%s snapshots=%d interval=%s cpus=%d disks=%d omitted=%d dropped=%d", fmt(span), fmt(good), n, interval, cpus, shown, omitted, dropped
      if (dropped > 0) printf " why=%s", (bcpu && bdisk ? "cpu,disk" : bcpu ? "cpu" : "disk")
      if (nfsshown > 0) printf " nfs=%d", nfsshown
      printf "\n"
    }
    $1 == "N" { cpus = $2 + 0; next }
    $1 == "T" { t = $2; next }
    $1 == "C" { for (i = 1; i <= 8; i++) c[i] = $(i + 1) + 0; cpus_seen = 1; next }
    $1 == "D" {
      d = $2; seen[d] = 1
      rd[d] = $3 + 0; rs[d] = $5 + 0; wr[d] = $7 + 0; ws[d] = $9 + 0; tk[d] = $12 + 0; wt[d] = $13 + 0
      next
    }
    $1 == "M" {
      m = $2; mseen[m] = 1
      for (i = 1; i <= 8; i++) mc[m, i] = $(i + 2) + 0
      next
    }
    $1 == "E" {
      n++
      if (n == 1) t0 = t
      else {
        dt = t - pt
        # A counter that went down makes the interval meaningless: iowait "will decrease in certain
        # conditions" (proc.rst), the diskstats fields wrap (iostats.rst: fields 10 and 11 are unsigned int).
        badc = 0; tot = 0
        for (i = 1; i <= 8; i++) { dc[i] = c[i] - pc[i]; if (dc[i] < 0) badc = 1; tot += dc[i] }
        badd = 0
        for (d in seen) if (d in prd)
          if (rd[d] < prd[d] || rs[d] < prs[d] || wr[d] < pwr[d] || ws[d] < pws[d] || tk[d] < ptk[d] || wt[d] < pwt[d]) badd = 1
        for (m in mseen) if (m in pmseen) for (i = 1; i <= 8; i++) if (mc[m, i] < pmc[m, i]) badd = 1
        if (dt > 0 && (badc || badd)) {
          dropped++; if (badc) bcpu = 1; if (badd) bdisk = 1
        } else if (dt > 0) {
          good += dt
          if (tot > 0) {
            for (i = 1; i <= 8; i++) { sc[i] += dc[i]; p = 100 * dc[i] / tot; if (p > cmax[i]) cmax[i] = p }
            stot += tot
            p = 100 - 100 * (dc[4] + dc[5]) / tot; if (p > bmax) bmax = p
          }
          for (d in seen) if (d in prd) {
            v = rd[d] - prd[d]; srd[d] += v; v /= dt; if (v > mr[d]) mr[d] = v
            v = wr[d] - pwr[d]; swr[d] += v; v /= dt; if (v > mw[d]) mw[d] = v
            v = rs[d] - prs[d]; srs[d] += v; v = 512 * v / dt; if (v > mrb[d]) mrb[d] = v
            v = ws[d] - pws[d]; sws[d] += v; v = 512 * v / dt; if (v > mwb[d]) mwb[d] = v
            v = wt[d] - pwt[d]; swt[d] += v; v = v / (1000 * dt); if (v > mq[d]) mq[d] = v
            v = tk[d] - ptk[d]; stk[d] += v; v = 100 * v / (1000 * dt); if (v > mu[d]) mu[d] = v
            measured[d] = 1
          }
          for (m in mseen) if (m in pmseen) {
            for (i = 1; i <= 8; i++) { dm[i] = mc[m, i] - pmc[m, i]; sm[m, i] += dm[i] }
            v = dm[1] / dt; if (v > nro[m]) nro[m] = v
            v = dm[4] / dt; if (v > nwo[m]) nwo[m] = v
            v = dm[7] / dt; if (v > nrb[m]) nrb[m] = v
            v = dm[8] / dt; if (v > nwb[m]) nwb[m] = v
            if (dm[1] > 0) { v = dm[2] / dm[1]; if (v > nrr[m]) nrr[m] = v; v = dm[3] / dm[1]; if (v > nre[m]) nre[m] = v }
            if (dm[4] > 0) { v = dm[5] / dm[4]; if (v > nwr[m]) nwr[m] = v; v = dm[6] / dm[4]; if (v > nwe[m]) nwe[m] = v }
            mmeasured[m] = 1
          }
        }
      }
      pt = t; for (i = 1; i <= 8; i++) pc[i] = c[i]
      for (d in seen) { prd[d] = rd[d]; prs[d] = rs[d]; pwr[d] = wr[d]; pws[d] = ws[d]; ptk[d] = tk[d]; pwt[d] = wt[d] }
      for (m in mseen) { pmseen[m] = 1; for (i = 1; i <= 8; i++) pmc[m, i] = mc[m, i] }
      next
    }
    END {
      span = n < 2 ? 0 : t - t0
      if (n < 2 || !cpus_seen || span <= 0 || good <= 0) {
        if (span < 0) span = 0
        windowline(0, 0)
        exit 0
      }
      # NFS mounts that did I/O, the busiest first: at most maxnfs.
      q = 0
      for (m in mmeasured) { ops = sm[m, 1] + sm[m, 4]; if (ops > 0) { q++; mname[q] = m; mcnt[q] = ops } }
      nfsshown = busiest(mname, mcnt, q, maxnfs)
      # NFS lines are wider than disk lines: with any shown, 3 lines of both together at most.
      if (nfsshown > 0) maxdisks = 3 - nfsshown
      # Disks that did I/O in the measured intervals, the busiest first.
      k = 0
      for (d in measured) { ops = srd[d] + swr[d]; if (ops > 0) { k++; name[k] = d; cnt[k] = ops } }
      shown = busiest(name, cnt, k, maxdisks)
      windowline(shown, k - shown)
      split("user nice system idle iowait irq softirq steal", label, " ")
      line = "cpu"
      for (i = 1; i <= 8; i++) line = line " " label[i] "=" fmt(stot > 0 ? 100 * sc[i] / stot : 0) "/" fmt(cmax[i])
      print line " busy=" fmt(stot > 0 ? 100 - 100 * (sc[4] + sc[5]) / stot : 0) "/" fmt(bmax)
      for (a = 1; a <= shown; a++) {
        d = name[a]
        printf "disk name=%s readOps=%s/%s writeOps=%s/%s readBytes=%.0f/%.0f writeBytes=%.0f/%.0f queueDepth=%s/%s busy=%s/%s\n", d,
          fmt(srd[d] / good), fmt(mr[d]), fmt(swr[d] / good), fmt(mw[d]),
          512 * srs[d] / good, mrb[d], 512 * sws[d] / good, mwb[d],
          fmt(swt[d] / (1000 * good)), fmt(mq[d]), fmt(100 * stk[d] / (1000 * good)), fmt(mu[d])
      }
      for (a = 1; a <= nfsshown; a++) {
        m = mname[a]
        printf "nfs mount=%s readOps=%s/%s writeOps=%s/%s readBytes=%.0f/%.0f writeBytes=%.0f/%.0f readRtt=%s/%s writeRtt=%s/%s readExe=%s/%s writeExe=%s/%s\n", m,
          fmt(sm[m, 1] / good), fmt(nro[m]), fmt(sm[m, 4] / good), fmt(nwo[m]), sm[m, 7] / good, nrb[m], sm[m, 8] / good, nwb[m],
          fmt(sm[m, 1] > 0 ? sm[m, 2] / sm[m, 1] : 0), fmt(nrr[m]), fmt(sm[m, 4] > 0 ? sm[m, 5] / sm[m, 4] : 0), fmt(nwr[m]),
          fmt(sm[m, 1] > 0 ? sm[m, 3] / sm[m, 1] : 0), fmt(nre[m]), fmt(sm[m, 4] > 0 ? sm[m, 6] / sm[m, 4] : 0), fmt(nwe[m])
      }
    }
  '
}

# The whole disks: sysfs' block entries but loop, ram and zram devices; empty when unreadable.
whole_disks() {
  if [ -d "$LAB_SYS_BLOCK" ]; then
    for sampler_dev in "$LAB_SYS_BLOCK"/*; do
      sampler_dev=${sampler_dev##*/}
      case $sampler_dev in
        '*' | loop* | ram* | zram*) ;;
        *) printf ' %s' "$sampler_dev" ;;
      esac
    done
  fi
}

# One snapshot: uptime, the aggregate cpu line, the disks' lines (all of them when `disks` is empty).
snapshot() {
  read -r sampler_up _ <"$LAB_PROC/uptime"
  read -r _ sampler_cpu <"$LAB_PROC/stat"
  printf 'T %s\nC %s\n' "$sampler_up" "$sampler_cpu"
  awk -v disks="$1" 'BEGIN { n = split(disks, a, " "); for (i = 1; i <= n; i++) keep[a[i]] = 1 }
    (n == 0 && $3 !~ /^(loop|ram|zram)/) || ($3 in keep) { $1 = ""; $2 = ""; sub(/^  /, ""); print "D " $0 }' "$LAB_PROC/diskstats"
  if [ -r "$LAB_MOUNTSTATS" ]; then nfs_mounts <"$LAB_MOUNTSTATS"; fi
  printf 'E\n'
}

# The NFS mounts of the sampler's own mount namespace (the benchmark's: same container), one line
# each: M <mount point> <READ ops> <READ rtt ms> <READ execute ms> <WRITE ops> <WRITE rtt ms>
# <WRITE execute ms> <server read bytes> <server write bytes>, from /proc/self/mountstats
# (fs/nfs/super.c nfs_show_stats: "device <export> mounted on <dir> with fstype nfs|nfs4
# statvers=1.1", its "bytes:" line normalreadbytes normalwritebytes directreadbytes
# directwritebytes serverreadbytes serverwritebytes readpages writepages; net/sunrpc/stats.c
# rpc_print_iostats: per operation "<OP>: ops transmissions timeouts bytes_sent bytes_received
# queue_ms rtt_ms execute_ms [errors]"). A block device has no counters for NFS traffic.
nfs_mounts() {
  awk '
    function flush() { if (mp != "") print "M", mp, rops, rrtt, rexe, wops, wrtt, wexe, srb, swb; mp = "" }
    $1 == "device" {
      flush()
      if ($3 == "mounted" && $4 == "on" && $7 == "fstype" && ($8 == "nfs" || $8 == "nfs4")) { mp = $5; rops = rrtt = rexe = wops = wrtt = wexe = srb = swb = 0 }
      next
    }
    mp != "" && $1 == "bytes:" { srb = $6; swb = $7; next }
    mp != "" && $1 == "READ:" { rops = $2; rrtt = $8; rexe = $9; next }
    mp != "" && $1 == "WRITE:" { wops = $2; wrtt = $8; wexe = $9; next }
    END { flush() }
  '
}

case ${1:-} in
  summarize)
    [ $# -eq 1 ] || usage
    summarize
    ;;
  snapshot)
    [ $# -eq 1 ] || usage
    snapshot ""
    ;;
  run)
    [ $# -eq 4 ] || usage
    sampler_out=$2
    sampler_stop=$3
    sampler_parent=$4
    if ! awk -v x="$LAB_SAMPLER_INTERVAL" 'BEGIN { exit !(x ~ /^[0-9]+(\.[0-9]+)?$/ && x + 0 > 0) }'; then
      printf '%s\n' "LAB_SAMPLER_INTERVAL must be a positive number of seconds, got '$LAB_SAMPLER_INTERVAL'" >&2
      exit 2
    fi
    # SIGUSR1 (lib.sh lab_util_end, after creating STOP) cuts the current sleep short: `wait`
    # returns at once when a trapped signal arrives (POSIX, Shell Command Language 2.11 "Signals
    # and Error Handling"), so the last snapshot is taken when the repetition ends.
    trap ':' USR1
    sampler_snapshots="$sampler_out.snapshots"
    disks=$(whole_disks)
    {
      printf 'N %s\n' "$(grep -c '^cpu[0-9]' "$LAB_PROC/stat" || true)"
      snapshot "$disks"
    } >"$sampler_snapshots"
    while [ ! -e "$sampler_stop" ] && kill -0 "$sampler_parent" 2>/dev/null; do
      sleep "$LAB_SAMPLER_INTERVAL" >/dev/null 2>&1 &
      sampler_sleep=$!
      if [ ! -e "$sampler_stop" ]; then wait "$sampler_sleep" || true; fi
      kill "$sampler_sleep" 2>/dev/null || true
      snapshot "$disks" >>"$sampler_snapshots"
    done
    # Stopped: the summary is wanted. The parent gone instead (a failed benchmark): nothing is.
    if [ -e "$sampler_stop" ]; then
      summarize <"$sampler_snapshots" >"$sampler_out.tmp"
      mv -f -- "$sampler_out.tmp" "$sampler_out"
    fi
    rm -f -- "$sampler_snapshots" 2>/dev/null || true
    ;;
  *) usage ;;
esac
