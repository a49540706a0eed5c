import Wire

/// Bytes from spaced hex text ("06 48 00"); an invalid literal gives a value no test expects.
func bytes(_ text: String) -> [UInt8] {
    Hex.parse(text) ?? [0xBA, 0xD0]
}


extension FieldDescribing {
    var fieldList: FieldList {
        var list = FieldList()
        describeFields(into: &list)
        return list
    }
}
