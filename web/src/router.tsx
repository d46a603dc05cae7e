// The route table of spec 1 §2 and spec 4 §2, each route with its entry rule (lib/guards.ts).
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppShell } from './components/app-shell';
import { AuthLayout } from './components/auth-layout';
import { PublicLayout } from './components/public-layout';
import { RootLayout } from './components/root-layout';
import { RouteError } from './components/route-error';
import { PageSpinner } from './components/spinner';
import {
  landingLoader,
  liveintentLoader,
  loginLoader,
  redirectIfSignedIn,
  requireAuth,
  requireToken,
  resetPasswordLoader,
  startupLoader,
  statsLoader,
  unknownPathLoader,
} from './lib/guards';
import { ApplicationStartupScreen } from './routes/application-startup/application-startup-screen';
import { BasicInfoScreen } from './routes/basic-info/basic-info-screen';
import { CampaignsScreen } from './routes/campaigns/campaigns-screen';
import { ConversionTrackerScreen } from './routes/conversion-tracker/conversion-tracker-screen';
import { DashboardScreen } from './routes/dashboard/dashboard-screen';
import { ForgotPasswordScreen } from './routes/forgot-password/forgot-password-screen';
import { FundingScreen } from './routes/funding/funding-screen';
import { IntegrationsScreen } from './routes/integrations/integrations-screen';
import { LicenseScreen } from './routes/license/license-screen';
import { LoginScreen } from './routes/login/login-screen';
import {
  type LiveintentView,
  ManageLiveintentScreen,
} from './routes/manage-liveintent/manage-liveintent-screen';
import { masterDashboardLoader } from './routes/master-dashboard/api';
import { MasterDashboardScreen } from './routes/master-dashboard/master-dashboard-screen';
import { PostbackUrlsScreen } from './routes/postback-urls/postback-urls-screen';
import { RegisterScreen } from './routes/register/register-screen';
import { RegisterUserScreen } from './routes/register-user/register-user-screen';
import { ReleaseNotesScreen } from './routes/release-notes/release-notes-screen';
import { ResetPasswordScreen } from './routes/reset-password/reset-password-screen';
import { RotatorReportScreen } from './routes/rotator-report/rotator-report-screen';
import { SettingsScreen } from './routes/settings/settings-screen';
import { StatsScreen } from './routes/stats/stats-screen';
import { ToolsScreen } from './routes/tools/tools-screen';

const liveintent = (path: string, view: LiveintentView, loader: typeof requireAuth): RouteObject => ({
  path: `manage-liveintent/campaign/:id${path}`,
  loader: liveintentLoader(loader),
  element: <ManageLiveintentScreen view={view} />,
});

const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      { index: true, loader: landingLoader, element: <PageSpinner /> },

      // Public screens: the centred card with the logo.
      {
        element: <AuthLayout />,
        children: [
          { path: 'login', loader: loginLoader, element: <LoginScreen /> },
          { path: 'register', element: <RegisterScreen /> },
          { path: 'forgot-password', loader: redirectIfSignedIn, element: <ForgotPasswordScreen /> },
          {
            path: 'reset-password/:email/:token',
            loader: resetPasswordLoader,
            element: <ResetPasswordScreen />,
          },
          { path: 'application-startup', loader: startupLoader, element: <ApplicationStartupScreen /> },
          { path: 'license', element: <LicenseScreen /> },
        ],
      },

      // Screens of the app: header, side menu and footer.
      {
        element: <AppShell />,
        children: [
          { path: 'dashboard', loader: requireAuth, element: <DashboardScreen /> },
          { path: 'campaigns', loader: requireAuth, element: <CampaignsScreen /> },
          { path: 'basic-info', loader: requireAuth, element: <BasicInfoScreen /> },
          { path: 'basic-info/:id', loader: requireAuth, element: <BasicInfoScreen /> },
          { path: 'setting', loader: requireAuth, element: <SettingsScreen /> },
          { path: 'tools', loader: requireAuth, element: <ToolsScreen /> },
          { path: 'conversion-tracker', loader: requireAuth, element: <ConversionTrackerScreen /> },
          { path: 'postback-urls', loader: requireAuth, element: <PostbackUrlsScreen /> },
          { path: 'funding', loader: requireAuth, element: <FundingScreen /> },
          { path: 'stats/:id', loader: statsLoader, element: <StatsScreen /> },
          { path: 'registeruser', element: <RegisterUserScreen /> },
          { path: 'master-dashboard', loader: masterDashboardLoader, element: <MasterDashboardScreen /> },
          { path: 'integrations', element: <IntegrationsScreen /> },
          { path: 'release-notes', element: <ReleaseNotesScreen /> },
          liveintent('', 'manage', requireAuth),
          liveintent('/create-campaign', 'create-campaign', requireToken),
          liveintent('/campaign/:refId/edit', 'edit-campaign', requireToken),
          liveintent('/create-lineitem', 'create-lineitem', requireAuth),
          liveintent('/lineitem/:refId/edit', 'edit-lineitem', requireAuth),
          liveintent('/create-conversion-tracker', 'create-conversion-tracker', requireAuth),
          liveintent('/conversion-tracker/:segmentId/edit', 'edit-conversion-tracker', requireAuth),
          liveintent('/create-ad', 'create-ad', requireAuth),
          liveintent('/ad/:refId/edit', 'edit-ad', requireToken),
          // Without a campaign id: the same check, then /campaigns (spec 4 §2).
          {
            path: 'manage-liveintent/campaign',
            loader: liveintentLoader(requireAuth),
            element: <PageSpinner />,
          },
        ],
      },

      // Read without signing in.
      {
        element: <PublicLayout />,
        children: [{ path: 'rotators/reports/:offer', element: <RotatorReportScreen /> }],
      },

      { path: '*', loader: unknownPathLoader, element: <PageSpinner /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
