# Writes the man page and the shell completions, generated from the CLI definition by the
# tfgpu binary itself (`tfgpu __man`, `tfgpu __completions SHELL`), into OUT.
# Usage: cmake -DTFGPU=path/to/tfgpu -DOUT=dir -P cli_docs.cmake
file(MAKE_DIRECTORY ${OUT})
foreach(pair "__man;tfgpu.1" "__completions;bash;tfgpu.bash" "__completions;zsh;_tfgpu"
             "__completions;fish;tfgpu.fish" "__completions;powershell;tfgpu.ps1")
  list(POP_BACK pair name)
  execute_process(COMMAND ${TFGPU} ${pair} OUTPUT_FILE ${OUT}/${name}.tmp RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tfgpu ${pair} failed (${rc}): ${err}")
  endif()
  file(RENAME ${OUT}/${name}.tmp ${OUT}/${name})
endforeach()
