# The devices bnb-vm uses, and nothing else (copied into the source tree as
# configs/devices/x86_64-softmmu/bnb.mak; configure's --with-devices-x86_64=bnb
# reads it).  q35 brings what it selects: ICH9 LPC, the ACPI builder (SRAT,
# SLIT, HMAT), 16550 serial, RTC, PIT, fw_cfg with DMA.
CONFIG_Q35=y
CONFIG_HPET=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_SERIAL=y
