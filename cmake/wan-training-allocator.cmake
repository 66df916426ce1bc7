# The allocator of the module's example programs and benchmarks, in both build modes (the
# standalone shim and ns-3's in-tree build include this file).
#
# ns-3 allocates and frees tens of small objects per packet per hop (packets, buffers, tags,
# callbacks); tcmalloc's thread caches make a packet-level run about 12% faster than glibc's
# malloc (training-bench, 50 MB global round; doc/building.rst has in-tree figures). Debian:
# libtcmalloc-minimal4 (libtcmalloc-minimal4t64 from Debian 13 on).
# WAN_TRAINING_ALLOCATOR_LIBRARIES is what to link: the library found, or nothing (glibc's
# malloc: the option off, or tcmalloc not installed).

option(WAN_TRAINING_TCMALLOC
       "Link the examples and benchmarks with tcmalloc_minimal when it is installed" ON)
set(WAN_TRAINING_ALLOCATOR_LIBRARIES)
if(WAN_TRAINING_TCMALLOC)
  find_library(WAN_TRAINING_TCMALLOC_LIBRARY NAMES tcmalloc_minimal libtcmalloc_minimal.so.4)
  if(WAN_TRAINING_TCMALLOC_LIBRARY)
    set(WAN_TRAINING_ALLOCATOR_LIBRARIES ${WAN_TRAINING_TCMALLOC_LIBRARY})
  endif()
endif()
