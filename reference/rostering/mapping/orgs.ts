import { compact, header, ref, type MapInput, type Row } from './rows.js';

/** Organization types OneRoster shows, by core resource (research §10). */
const ORG_TYPES: Record<string, string> = { stateEducationAgency: 'state', localEducationAgency: 'district', school: 'school' };

/** orgs: state agencies, districts and schools, linked by the model's parent references. */
export function mapOrgs({ src, shared }: MapInput): Row[] {
  const shown = [...src.orgs].filter(([, o]) => ORG_TYPES[o.resource.name]);
  for (const [id, o] of shown) shared.orgRowId.set(id, o.record.id);
  return shown.map(([id, { record, resource }]) => {
    const parent = (src.parents.get(id) ?? []).find((p) => shared.orgRowId.has(p));
    const children = (src.children.get(id) ?? []).filter((c) => shared.orgRowId.has(c)).map((c) => ref('org', shared.orgRowId.get(c)!));
    return {
      sourcedId: record.id,
      org: id,
      reach: 'down',
      data: compact({
        ...header(record.id, record),
        name: record.doc.nameOfInstitution,
        type: ORG_TYPES[resource.name],
        identifier: id,
        parent: parent ? ref('org', shared.orgRowId.get(parent)!) : undefined,
        children: children.length ? children : undefined,
      }),
    };
  });
}
