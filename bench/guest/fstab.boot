# /etc/fstab.boot of the guest: /init mounts these first (mount -a -T).
proc     /proc               proc     defaults 0 0
sysfs    /sys                sysfs    defaults 0 0
devtmpfs /dev                devtmpfs defaults 0 0
debugfs  /sys/kernel/debug   debugfs  defaults 0 0
tracefs  /sys/kernel/tracing tracefs  defaults 0 0
