/** What entryAfterMarkup and liveChunkList share: the files a set of modules reaches, written into a chunk's code. */

export interface ChunkOf {
  readonly fileName: string
  readonly moduleIds: ReadonlyArray<string>
  readonly imports: ReadonlyArray<string>
}

/**
 * Writes a list of files into a chunk's code in place of the string `placeholder` (quoted), as a JSON array; null (the
 * chunk unchanged) when the chunk does not hold it. `files` is only read when it does.
 */
export const writeFileList = (code: string, placeholder: string, files: () => ReadonlySet<string>) => {
  const quoted = new RegExp(`(["'\`])${placeholder}\\1`, "g")
  if (!quoted.test(code)) return null
  return { code: code.replace(quoted, JSON.stringify([...files()])), map: null }
}

/** The files of the chunks that hold these modules (paths from the root) and every file they import statically. */
export const filesReaching = (chunks: Readonly<Record<string, ChunkOf>>, paths: ReadonlyArray<string>): Set<string> => {
  const files = new Set<string>()
  const walk = (fileName: string) => {
    if (files.has(fileName)) return
    files.add(fileName)
    for (const i of chunks[fileName]?.imports ?? []) walk(i)
  }
  for (const path of paths) {
    const found = Object.values(chunks).find((c) => c.moduleIds.some((id) => id.split("?")[0]?.endsWith(`/${path}`)))
    if (found === undefined) throw new Error(`hswap: no chunk of the build holds ${path}`)
    walk(found.fileName)
  }
  return files
}
