export const ROLES = ['admin', 'coach', 'student'] as const;
export type Role = (typeof ROLES)[number];
