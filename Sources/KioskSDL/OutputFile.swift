import Foundation

/// A file written line by line, buffered, flushed when the buffer is large and on close.
final class OutputFile {
    let path: String
    let handle: FileHandle
    var buffer: [UInt8] = []

    init(_ path: String) throws(KioskError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path)
        else {
            throw .other("\(path): cannot write the file")
        }
        handle = h
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        flush()
        try? handle.close()
    }
}
