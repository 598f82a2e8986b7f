/// Generators as editors' tools write them, drawn as Segue can: xmeml's
/// `<generatoritem>`, and Premiere's clip items whose `<file>` has no
/// `<pathurl>` (Universal Counting Leader, Bars and Tone, Black Video, Color
/// Matte, Slug); OTIO's GeneratorReference. Each is drawn in silence with a
/// note naming it: black for slugs, black video and leaders, its colour for a
/// matte, colour bars for bars; an unknown generator is black.
enum EditGenerators {
    /// What kind of generator `name` (its effect's or file's name, or an OTIO `generator_kind`) is; nil when unknown.
    enum Kind { case black, matte, bars }
    static func kind(named name: String) -> Kind? {
        let key = name.lowercased().filter(\.isLetter)
        if key.contains("bars") { return .bars }
        if key.contains("matte") || key.contains("solidcolo") || key == "color" || key == "colour" { return .matte }
        if ["black", "slug", "leader"].contains(where: { key.contains($0) }) || key == "bl" { return .black }
        return nil
    }

    /// How a generator named `name` is drawn, with `colour` when the file states one; and the note that says so.
    static func look(named name: String, colour: String?, label: String) -> (look: EditFill.Look, note: String) {
        let quoted = name.isEmpty ? "generator" : "generator '\(name)'"
        switch kind(named: name) {
        case .bars:
            return (.bars, "\(label): \(quoted) drawn as colour bars, in silence (its tone isn't played)")
        case .matte:
            guard let colour else { return (.black, "\(label): \(quoted) drawn black (the file gives no colour), in silence") }
            return (.colour(colour), "\(label): \(quoted) drawn in its colour \(colour), in silence")
        case .black:
            return (.black, "\(label): \(quoted) drawn black, in silence")
        case nil:
            return (.black, "\(label): unknown \(quoted) drawn black, in silence")
        }
    }

    /// `#RRGGBB` from channel values 0 to 255 (or 0 to 1 when every one is at most 1); nil when any is missing or out of range.
    static func colour(red: String?, green: String?, blue: String?) -> String? {
        let values = [red, green, blue].compactMap { $0.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }
        guard values.count == 3, values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 255 }) else { return nil }
        let unit = values.allSatisfy { $0 <= 1 } && values.contains { $0 != $0.rounded() }
        let bytes = values.map { Int((unit ? $0 * 255 : $0).rounded()) }
        return "#" + bytes.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
    }
}

extension XMLTrackReading {
    /// The look and note of `item` when it is a generator: a `<generatoritem>`,
    /// or a clip item whose file has no path and whose file or effect says it
    /// is generated (a known generator's name, a `mediaSource`, an effect of
    /// type generator); nil for a clip item that names media (found or not).
    func generator(_ item: ParsedXMLElement, _ label: String) -> (look: EditFill.Look, note: String)? {
        let file = item.child("file").map(reader.deref)
        let effects = [item] + (file.map { [$0] } ?? [])
        let effect = effects.lazy.flatMap { $0.children("effect") }.first
            ?? effects.lazy.flatMap { $0.children("filter").map(reader.deref).compactMap { $0.child("effect") } }
            .first { $0.text("effecttype")?.lowercased() == "generator" }
        let name = [effect?.text("name"), file?.text("name"), item.text("name")].compactMap { $0 }.first { !$0.isEmpty } ?? ""
        if item.name != "generatoritem" {
            guard let file, (file.text("pathurl") ?? "").isEmpty else { return nil }
            let known = EditGenerators.kind(named: name) != nil
            let generated = file.text("mediaSource") != nil || effect?.text("effecttype")?.lowercased() == "generator"
            guard known || generated else { return nil }
        }
        return EditGenerators.look(named: name, colour: Self.colourParameter(of: item), label: label)
    }

    /// Whether the generator `item` draws a title or graphic over what lies
    /// below (text, lower thirds, crawls, Premiere's Graphic and Transparent
    /// Video, a generator with an alpha channel), not a full frame of its own:
    /// none of black, a matte or bars.
    func isTitle(_ item: ParsedXMLElement) -> Bool {
        let file = item.child("file").map(reader.deref)
        let effects = ([item] + (file.map { [$0] } ?? [])).flatMap { $0.children("effect") + $0.children("filter").map(reader.deref).compactMap { $0.child("effect") } }
        let said = [item.text("name"), file?.text("name"), file?.text("mediaSource")] + effects.flatMap {
            [$0.text("name"), $0.text("effectid"), $0.text("effectcategory")]
        }
        let words = said.compactMap { $0?.lowercased() }
        let marks = ["text", "title", "lower 3rd", "lower third", "crawl", "typewriter", "graphic", "transparent"]
        if words.contains(where: { word in marks.contains(where: word.contains) }) { return true }
        // An alpha channel, unless it is a full frame by name (Premiere's generators all say `Slug`).
        let alpha = [item.text("alphatype"), file?.text("alphatype")].contains { ["straight", "premultiplied"].contains($0?.lowercased() ?? "") }
        return alpha && !words.contains { $0 != "slug" && EditGenerators.kind(named: $0) != nil }
    }

    /// The colour a generator's parameter states (`parameterid` or `name` color), searched a few levels down.
    private static func colourParameter(of item: ParsedXMLElement) -> String? {
        var pending = [(item, 0)]
        while let (element, depth) = pending.popLast() {
            let names = [element.text("parameterid"), element.text("name")].compactMap { $0?.lowercased() }
            if element.name == "parameter", names.contains(where: { ["color", "colour", "fillcolor"].contains($0) }),
               let value = element.child("value") {
                return EditGenerators.colour(red: value.text("red"), green: value.text("green"), blue: value.text("blue"))
            }
            if depth < 6 { pending += element.children.map { ($0, depth + 1) } }
        }
        return nil
    }
}
