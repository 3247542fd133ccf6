import Foundation

/// The pure part of compose: input files in, output files out.
public enum ComposePlanner {
    /// Plans the output for `input`; collects every problem and throws once.
    public static func plan(_ input: ComposeInput) throws(ComposeError) -> ComposeResult {
        let tenant = input.tenant
        let activeSet = input.project.activeSet(for: tenant)
        let effective = Set(activeSet.effective)
        let active = input.project.graph.topologicalOrder.filter { effective.contains($0) }
        var problems: [ComposeProblem] = []
        var warnings = input.warnings
        var tables: [StringsTable] = []
        var descriptions: [(module: String, description: ModuleDescription)] = []
        for name in active {
            guard let module = input.project.module(named: name), let files = input.modules[name] else {
                problems.append(ComposeProblem(.input, "module \(name): its files were not read"))
                continue
            }
            let stringsSource = "\(module.path)/\(ComposeLayout.moduleStrings) (module \(name))"
            switch files.strings {
            case .present(let data):
                do {
                    tables.append(try StringsTable.parse(data, source: stringsSource))
                } catch {
                    problems += error.problems
                }
            case .missing: break
            case .refused(let problem): problems.append(problem)
            }
            let descriptionSource = "\(module.path)/\(ComposeLayout.moduleDescription) (module \(name))"
            switch files.description {
            case .present(let data):
                do {
                    let description = try ModuleDescription.parse(data, module: name, source: descriptionSource)
                    if let declared = description.dependsOn, Set(declared) != Set(module.dependsOn) {
                        warnings.append(
                            "\(descriptionSource): dependsOn [\(declared.joined(separator: ", "))] differs from "
                                + "modules.json [\(module.dependsOn.joined(separator: ", "))]; modules.json decides")
                    }
                    descriptions.append((name, description))
                } catch {
                    problems += error.problems
                }
            case .missing: break
            case .refused(let problem): problems.append(problem)
            }
        }
        tables += tenantTables(input, problems: &problems)
        var dependencies = ComposedDependencies(packages: [], pods: [])
        do {
            dependencies = try DependencyComposer.compose(descriptions, tenant: tenant)
        } catch {
            problems += error.problems
        }
        var buildSettings: [(name: String, value: String)] = []
        do {
            buildSettings = try TenantXcconfigWriter.settings(tenant: tenant, platforms: dependencies.platforms)
        } catch {
            problems += error.problems
        }
        guard problems.isEmpty else { throw ComposeError(problems: problems) }

        let strings = StringsComposer.compose(tables)
        let files = outputFiles(
            tenant: tenant, active: active, dropped: activeSet.dropped, strings: strings, dependencies: dependencies,
            buildSettings: buildSettings)
        return ComposeResult(
            plan: ComposePlan(files: files), active: active, dropped: activeSet.dropped,
            stringTables: tables.map(\.source), strings: strings,
            dependencies: dependencies, buildSettings: buildSettings, warnings: warnings)
    }

    /// The tenant's own strings tables, in the order its file lists them; a missing or unreadable one is a problem.
    static func tenantTables(_ input: ComposeInput, problems: inout [ComposeProblem]) -> [StringsTable] {
        var tables: [StringsTable] = []
        for (offset, entry) in input.tenantStrings.enumerated() {
            let source = "\(entry.path) (tenant \(input.tenant.id))"
            switch entry.file {
            case .present(let data):
                do {
                    tables.append(try StringsTable.parse(data, source: source))
                } catch {
                    problems += error.problems
                }
            case .missing:
                problems.append(
                    ComposeProblem(
                        .missingFile,
                        "tenant \(input.tenant.id): strings file \(entry.path) does not exist in \(input.origin) "
                            + "(\(input.tenant.file) strings[\(offset)])"))
            case .refused(let problem): problems.append(problem)
            }
        }
        return tables
    }

    /// The files of the output directory, by path relative to it.
    static func outputFiles(
        tenant: Tenant, active: [String], dropped: [DroppedModule], strings: ComposedStrings,
        dependencies: ComposedDependencies, buildSettings: [(name: String, value: String)]
    ) -> [String: Data] {
        var files: [String: Data] = [:]
        files[ComposePlan.marker] = Data(
            "Written by `tenantctl compose`; this directory is replaced as a whole on every run.\n".utf8)
        files[ComposeLayout.activeModules] = activeModulesJSON(
            tenant: tenant.id, active: active, dropped: dropped)
        let header = "Generated by `tenantctl compose` for tenant \(tenant.id). Do not edit."
        for language in strings.languages {
            files["\(language).lproj/Localizable.strings"] = StringsFileWriter.file(
                strings, language: language, header: header)
        }
        files[ComposeLayout.stringCatalog] = StringCatalogWriter.catalog(strings)
        files[ComposeLayout.packageManifest] = PackageManifestWriter.manifest(dependencies, tenant: tenant.id)
        files[ComposeLayout.packageExports] = PackageManifestWriter.exports(dependencies)
        if !dependencies.pods.isEmpty {
            files[ComposeLayout.podfile] = PodfileWriter.podfile(dependencies.pods, tenant: tenant.id)
        }
        files[ComposeLayout.xcconfig] = TenantXcconfigWriter.file(tenant: tenant, settings: buildSettings)
        return files
    }

    /// `ActiveModules.json`: the tenant, its effective active modules in dependency order, the dropped ones.
    static func activeModulesJSON(tenant: String, active: [String], dropped: [DroppedModule]) -> Data {
        var out = "{\n"
        out += "  \"version\": 1,\n"
        out += "  \"tenant\": \(JSONText.quoted(tenant)),\n"
        out += "  \"active\": \(JSONText.inlineArray(active)),\n"
        if dropped.isEmpty {
            out += "  \"dropped\": []\n"
        } else {
            out += "  \"dropped\": [\n"
            out +=
                dropped.map {
                    "    { \"module\": \(JSONText.quoted($0.module)), \"missing\": \(JSONText.inlineArray($0.missing)) }"
                }.joined(separator: ",\n") + "\n"
            out += "  ]\n"
        }
        out += "}\n"
        return Data(out.utf8)
    }
}
