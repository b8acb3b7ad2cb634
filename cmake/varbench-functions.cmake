# varbench_add_benchmark(NAME SOURCES file...): a benchmark program from C, C++ or CUDA sources
# whose families end in VB_MAIN(...) (or call vb_main): `NAME list`, `NAME run [varbench run's
# options]`. Linked with varbench::varbench; its run path finds libcupti where the toolkit keeps
# it. The project needs the languages C, CXX (the library's CUPTI profiler host code) and, for .cu
# sources, CUDA. Works the same after find_package(varbench) and inside varbench's own tree.
function(varbench_add_benchmark name)
  cmake_parse_arguments(PARSE_ARGV 1 VB "" "" "SOURCES")
  if(NOT VB_SOURCES)
    message(FATAL_ERROR "varbench_add_benchmark(${name}): no SOURCES given")
  endif()
  if(VB_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "varbench_add_benchmark(${name}): unknown arguments ${VB_UNPARSED_ARGUMENTS}")
  endif()
  add_executable(${name} ${VB_SOURCES})
  target_link_libraries(${name} PRIVATE varbench::varbench)
  get_target_property(cupti CUDA::cupti LOCATION)
  get_filename_component(cupti_dir "${cupti}" DIRECTORY)
  # where this toolkit keeps libcupti, and where a toolkit of the usual layout at the same root
  # does (lib64, extras/CUPTI/lib64): the GPU machine's may be either
  set(rpath "${CUDAToolkit_LIBRARY_DIR};${cupti_dir};${CUDAToolkit_LIBRARY_ROOT}/lib64;"
    "${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64")
  string(REPLACE ";;" ";" rpath "${rpath}")
  set_target_properties(${name} PROPERTIES BUILD_RPATH "${rpath}" INSTALL_RPATH "${rpath}")
endfunction()
