import { Link } from 'react-router';

/** The footer of a public screen that leads back to the sign-in page: a short lead, then the link. */
export function SignInFooter({ lead, label = 'Back to sign in' }: { lead: string; label?: string }) {
  return (
    <span>
      {lead} <Link to="/login">{label}</Link>
    </span>
  );
}
